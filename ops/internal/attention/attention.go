// Package attention is the scaled dot-product attention engine: for each
// batch, query head and query row, softmax(scale * q K^T (+ softcap, mask,
// causal and padding limits)) V, with grouped-query heads sharing key and
// value heads.
//
// The Attention operator (versions 23 and 24) runs on it; LinearAttention
// runs on its recurrent form (RunLinear, linear.go), and the preview
// domain's FlexAttention on its dense products (flex.go). It computes Q
// K^T in tiles of query rows by key columns through the matrix-product
// engine (ops/internal/gemm), then an online softmax over the key tiles
// (each tile's row maxima rescale what the tiles before gave), then the
// tile's probabilities times V through gemm again; so when no output asks
// for the scores it never holds more than one tile of the score matrix per
// worker (queries × keys is never materialised), and a causal or padded
// row stops at its last key that can take part. When an output asks for
// the scores (qk_matmul_output), a tile spans every key and the scores at
// the stage asked for are written there.
//
// Work is spread over batch × heads × query tiles through the worker pool
// (ops/internal/parallel); each part's scratch (a few tiles) is told to
// Config.Charge before it is allocated, and the context is checked between
// tiles. It never writes into Q, K, V or the mask, never allocates
// scratch that grows with the input without charging it first, and never
// decides types or shapes: its caller (package ops) checks the operator's
// rules and converts the element types.
package attention

import (
	"context"
	"math"
	"sync"

	"github.com/onnxshape/onnxshape/ops/internal/gemm"
	"github.com/onnxshape/onnxshape/ops/internal/parallel"
	"github.com/onnxshape/onnxshape/ops/internal/reduce"
)

// Config is what a run goes under: the context (nil for none), the cores
// (at least 1) and the run's byte budget (nil for none).
type Config struct {
	Ctx     context.Context
	Threads int
	Charge  func(bytes int64) error
}

// Layout gives the strides, in elements, of a [batch, heads, seq, dim]
// view of a flat slice whose dim axis is contiguous: 4-D tensors
// [batch, heads, seq, dim] and 3-D ones [batch, seq, heads*dim] alike.
type Layout struct{ Batch, Head, Seq int }

// BHSD is the layout of a [batch, heads, seq, dim] tensor.
func BHSD(heads, seq, dim int) Layout { return Layout{heads * seq * dim, seq * dim, dim} }

// BSHD is the layout of a [batch, seq, heads*dim] tensor.
func BSHD(heads, seq, dim int) Layout { return Layout{seq * heads * dim, dim, heads * dim} }

// Stage is the point of the computation at which scores are recorded.
type Stage int

const (
	StageProduct Stage = iota // scale * Q K^T
	StageSoftcap              // after the softcap (the product without one)
	StageMasked               // after the mask, causal and padding limits
	StageSoftmax              // the probabilities
)

// Problem is one attention call. K and V hold every key and value (a
// past cache already joined). A key j takes part in query row i of batch b
// when j < MaskCols, j < ValidKeys[b] (nil: every key), the boolean mask
// (if any) is true there and, when Causal, j <= i + CausalOffset[b].
type Problem[T float32 | float64] struct {
	Batch, QHeads, KVHeads, QSeq, KVSeq, HeadK, HeadV int

	Q, K, V, Y     []T
	QL, KL, VL, YL Layout

	Scale   T
	Softcap T // 0: none

	Causal       bool
	CausalOffset []int // per batch, with Causal
	ValidKeys    []int // per batch; nil: all

	// The mask, additive (MaskAdd) or boolean (MaskBool, 0 masks out), of
	// strides MaskStrides over (batch, head, row, key), 0 where it
	// broadcasts; its columns are MaskCols (keys past them are masked
	// out). Both nil: no mask, and MaskCols is ignored.
	MaskAdd     []T
	MaskBool    []byte
	MaskStrides [4]int
	MaskCols    int

	// Scores, when not nil, receives [batch, q heads, q seq, kv seq]
	// scores at ScoreStage.
	Scores     []T
	ScoreStage Stage
}

// Tile sizes: a tile of qTile rows by kTile keys of scores (192 KiB in
// float32) with its rows of V products stays in the L2 cache; qTile is a
// multiple of the micro-kernels' rows (12 with AVX-512, 6 with AVX2).
// Measured in CPU time on the 2,048-token benchmark, 96 by 512 beat 64 by
// 256 by some 5% without causal and 10% with.
const (
	qTile = 96
	kTile = 512
)

// Run computes p.Y (and p.Scores).
func Run[T float32 | float64](cfg Config, p *Problem[T]) error {
	if p.Batch == 0 || p.QHeads == 0 || p.QSeq == 0 || p.HeadV == 0 {
		return nil
	}
	blocks := (p.QSeq + qTile - 1) / qTile
	n := p.Batch * p.QHeads * blocks
	work := int(min(float64(p.Batch)*float64(p.QHeads)*float64(p.QSeq)*float64(p.KVSeq)*float64(p.HeadK+p.HeadV), 1<<40))
	workers := max(cfg.Threads, 1)
	if work < parallel.Work {
		workers = 1
	}
	workers = min(workers, n)
	// Every worker's scratch is charged before any work: its tiles and
	// one (batch, kv head)'s keys and values packed for the products.
	if cfg.Charge != nil {
		if err := cfg.Charge(int64(workers) * workerBytes(p)); err != nil {
			return err
		}
	}
	// The products of a partial tile (the last keys a causal or padded
	// block reads) pack their operand themselves and charge that scratch
	// through one account, a slot per worker: once for what each worker
	// holds, not at each of a long sequence's many tile products.
	if workers == 1 {
		// One part, run here: no account of slots, no function value (a
		// small call's allocations); the part's worker holds its account.
		if err := parallel.Err(cfg.Ctx); err != nil {
			return err
		}
		return runPart(cfg, p, blocks, nil, 0, n)
	}
	scratch := new(gemm.Scratch)
	return parallel.RangeW(cfg.Ctx, workers, n, work, func(wk, lo, hi int) error {
		return runPart(cfg, p, blocks, scratch.Slot(wk), lo, hi)
	})
}

// runPart computes items [lo, hi) of p's (batch, head, block of rows)
// items, its products' scratch charged through acct (nil: an account of
// the part's own).
func runPart[T float32 | float64](cfg Config, p *Problem[T], blocks int, acct *gemm.Scratch, lo, hi int) error {
	w := getWorker[T](cfg, gemm.Config{Ctx: cfg.Ctx, Threads: 1, Charge: cfg.Charge, Scratch: acct}, p)
	defer putWorker(w)
	for item := lo; item < hi; item++ {
		blk := item % blocks
		if p.Causal {
			// Early and late blocks alternate, so that a worker's
			// contiguous share of a causal head's triangle weighs
			// as much as another's.
			if blk%2 == 0 {
				blk /= 2
			} else {
				blk = blocks - 1 - blk/2
			}
		}
		h := item / blocks % p.QHeads
		b := item / blocks / p.QHeads
		i0 := blk * qTile
		if err := w.rows(b, h, i0, min(i0+qTile, p.QSeq)); err != nil {
			return err
		}
	}
	return nil
}

// worker holds one part's scratch.
type worker[T float32 | float64] struct {
	cfg  Config
	gcfg gemm.Config
	// own is the products' account of a part that runs alone (Run).
	own   gemm.Scratch
	p     *Problem[T]
	cols  int // keys per tile
	s     []T // scores then probabilities, rows × cols
	acc   []T // rows × HeadV
	m, l  []T // running row maxima and sums
	ecorr []T
	// The key tiles of one (batch, kv head) packed as K^T (kp) and V
	// (vp), each a *gemm.PackedB32 or *gemm.PackedB64 as T is, and the
	// batch*KVHeads + kv head each holds (-1: none yet).
	kp, vp    []any
	packedFor []int
	// packedDims are the key tiles' dimensions (HeadK, HeadV, cols,
	// KVSeq) kp and vp were packed for: a worker taken back from the pool
	// for another problem packs anew.
	packedDims [4]int
	// badKey is the last key of the (batch, kv head) badKeyFor (-1:
	// none yet) holding an infinity or a NaN, -1 for none; maskBad is
	// whether the additive mask holds a NaN or +inf (skippedPoison).
	badKey, badKeyFor int
	maskBad           bool
}

// workers32 and workers64 hold finished workers for the next Run (what a
// Run charges for its workers it charges at every Run); reuseWorkers is
// off in the test that holds the pooled workers to new ones' bits.
var (
	workers32, workers64 sync.Pool
	reuseWorkers         = true
)

// getWorker returns a worker for p: a pooled one, or a new one, set up
// for p.
func getWorker[T float32 | float64](cfg Config, gcfg gemm.Config, p *Problem[T]) *worker[T] {
	pool := &workers32
	var z T
	if sizeOf(z) == 8 {
		pool = &workers64
	}
	w, ok := pool.Get().(*worker[T])
	if !ok || !reuseWorkers {
		w = new(worker[T])
	}
	if gcfg.Scratch == nil {
		w.own = gemm.Scratch{}
		gcfg.Scratch = &w.own
	}
	w.setUp(cfg, gcfg, p)
	return w
}

// putWorker gives w back to its pool, without its problem.
func putWorker[T float32 | float64](w *worker[T]) {
	w.cfg, w.gcfg, w.p = Config{}, gemm.Config{}, nil
	var z T
	if sizeOf(z) == 8 {
		workers64.Put(w)
		return
	}
	workers32.Put(w)
}

// tileCols is the number of keys per tile: every key in one tile when
// the scores are asked for.
func tileCols[T float32 | float64](p *Problem[T]) int {
	if p.Scores != nil {
		return max(p.KVSeq, 1)
	}
	return min(kTile, max(p.KVSeq, 1))
}

// workerBytes is the scratch one worker holds: its tiles, and the key
// tiles of one (batch, kv head) packed (about K's and V's head).
func workerBytes[T float32 | float64](p *Problem[T]) int64 {
	cols, rows := tileCols(p), min(qTile, p.QSeq)
	var zero T
	size := int64(rows*cols+rows*p.HeadV+3*rows) * int64(sizeOf(zero))
	for j0 := 0; j0 < p.KVSeq; j0 += cols {
		nc := min(cols, p.KVSeq-j0)
		if sizeOf(zero) == 4 {
			size += gemm.PackedBytes32(p.HeadK, nc) + gemm.PackedBytes32(nc, p.HeadV)
		} else {
			size += gemm.PackedBytes64(p.HeadK, nc) + gemm.PackedBytes64(nc, p.HeadV)
		}
	}
	return size
}

// setUp readies w's tiles for p, which Run has charged: the buffers it
// has when they are large enough, new ones otherwise; its packed key
// tiles are kept only for keys and values of the same sizes, and every
// tile is marked unpacked.
func (w *worker[T]) setUp(cfg Config, gcfg gemm.Config, p *Problem[T]) {
	cols, rows := tileCols(p), min(qTile, p.QSeq)
	tiles := (p.KVSeq + cols - 1) / cols
	w.cfg, w.gcfg, w.p, w.cols = cfg, gcfg, p, cols
	w.s, w.acc = grown(w.s, rows*cols), grown(w.acc, rows*p.HeadV)
	w.m, w.l, w.ecorr = grown(w.m, rows), grown(w.l, rows), grown(w.ecorr, rows)
	if dims := [4]int{p.HeadK, p.HeadV, cols, p.KVSeq}; w.kp == nil || dims != w.packedDims || cap(w.kp) < tiles {
		w.kp, w.vp, w.packedFor = make([]any, tiles), make([]any, tiles), make([]int, tiles)
		w.packedDims = dims
	}
	w.kp, w.vp, w.packedFor = w.kp[:tiles], w.vp[:tiles], w.packedFor[:tiles]
	w.badKeyFor, w.maskBad = -1, false
	if p.MaskAdd != nil && (p.Causal || p.ValidKeys != nil) {
		// Keys the tiles skip may still have mask values (every one
		// checked: a broadcast view's superset).
		posInf := T(math.Inf(1))
		for _, m := range p.MaskAdd {
			if m != m || m == posInf {
				w.maskBad = true
				break
			}
		}
	}
	for t := range w.packedFor {
		w.packedFor[t] = -1
	}
}

// grown returns s with n elements: s itself when it has room.
func grown[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

func sizeOf[T float32 | float64](T) int {
	var z T
	if _, ok := any(z).(float32); ok {
		return 4
	}
	return 8
}

// packTile makes sure tile t of the worker holds the keys [j0, j0+nc) of
// k and v (batch and kv head bh) packed.
func (w *worker[T]) packTile(t, bh, j0, nc int, k, v []T) error {
	if w.packedFor[t] == bh {
		return nil
	}
	p := w.p
	// Run charged these buffers: the packing charges nothing more.
	pcfg := gemm.Config{Ctx: w.cfg.Ctx}
	var err error
	if w.kp[t], err = packT(pcfg, w.kp[t], true, p.HeadK, nc, k[j0*p.KL.Seq:], p.KL.Seq); err != nil {
		return err
	}
	if w.vp[t], err = packT(pcfg, w.vp[t], false, nc, p.HeadV, v[j0*p.VL.Seq:], p.VL.Seq); err != nil {
		return err
	}
	w.packedFor[t] = bh
	return nil
}

// rows computes query rows [i0, i1) of batch b, head h.
func (w *worker[T]) rows(b, h, i0, i1 int) error {
	p := w.p
	nr := i1 - i0
	if p.KVSeq == 0 {
		// No key: every row is masked out, zeros; K and V are empty, no
		// offset into them exists (a head's offset past 0 panicked).
		for r := range nr {
			clear(p.Y[b*p.YL.Batch+h*p.YL.Head+(i0+r)*p.YL.Seq:][:p.HeadV])
		}
		return nil
	}
	kvh := h / (p.QHeads / p.KVHeads)
	q := p.Q[b*p.QL.Batch+h*p.QL.Head+i0*p.QL.Seq:]
	k := p.K[b*p.KL.Batch+kvh*p.KL.Head:]
	v := p.V[b*p.VL.Batch+kvh*p.VL.Head:]
	negInf := T(math.Inf(-1))
	for r := range nr {
		w.m[r], w.l[r] = negInf, 0
	}
	clear(w.acc[:nr*p.HeadV])
	// The keys that can take part in some row of the block: the tiles
	// past them are skipped.
	keys := p.KVSeq
	if p.Scores == nil {
		if p.MaskAdd != nil || p.MaskBool != nil {
			keys = min(keys, p.MaskCols)
		}
		if p.ValidKeys != nil {
			keys = min(keys, max(p.ValidKeys[b], 0))
		}
		if p.Causal {
			keys = min(keys, max(i1-1+p.CausalOffset[b]+1, 0))
		}
	}
	if keys < p.KVSeq {
		w.skippedPoison(b, h, kvh, i0, nr, keys, q, k)
	}
	for j0 := 0; j0 < keys; j0 += w.cols {
		if w.cfg.Ctx != nil {
			if err := w.cfg.Ctx.Err(); err != nil {
				return err
			}
		}
		nc := min(w.cols, keys-j0)
		s := w.s[:nr*nc]
		// A whole tile multiplies by the keys and values packed once per
		// (batch, kv head); the partial last tile of a block reads them
		// in place (the product packs its nc keys itself).
		whole := nc == min(w.cols, p.KVSeq-j0)
		t := j0 / w.cols
		if whole {
			if err := w.packTile(t, b*p.KVHeads+kvh, j0, nc, k, v); err != nil {
				return err
			}
			if err := gemmPackedT(w.gcfg, nr, nc, p.HeadK, p.Scale, q, p.QL.Seq, w.kp[t], 0, s, nc); err != nil {
				return err
			}
		} else if err := gemmT(w.gcfg, false, true, nr, nc, p.HeadK, p.Scale, q, p.QL.Seq, k[j0*p.KL.Seq:], p.KL.Seq, 0, s, nc); err != nil {
			return err
		}
		w.record(StageProduct, s, b, h, i0, nr, j0, nc)
		if p.Softcap > 0 {
			c := float64(p.Softcap)
			for x := range s {
				s[x] = T(c * math.Tanh(float64(s[x])/c))
			}
		}
		w.record(StageSoftcap, s, b, h, i0, nr, j0, nc)
		w.mask(s, b, h, i0, nr, j0, nc)
		w.record(StageMasked, s, b, h, i0, nr, j0, nc)
		// Online softmax: rescale what the earlier tiles gave to the new
		// row maxima, then add this tile's exponentials.
		w.softmaxTile(s, nr, nc)
		for r := range nr {
			if c := w.ecorr[r]; c != 1 {
				a := w.acc[r*p.HeadV : (r+1)*p.HeadV]
				for x := range a {
					a[x] *= c
				}
			}
		}
		if whole {
			if err := gemmPackedT(w.gcfg, nr, p.HeadV, nc, 1, s, nc, w.vp[t], 1, w.acc, p.HeadV); err != nil {
				return err
			}
		} else if err := gemmT(w.gcfg, false, false, nr, p.HeadV, nc, 1, s, nc, v[j0*p.VL.Seq:], p.VL.Seq, 1, w.acc, p.HeadV); err != nil {
			return err
		}
		if p.Scores != nil && p.ScoreStage == StageSoftmax {
			for r := range nr {
				row := s[r*nc : (r+1)*nc]
				inv := T(0)
				if w.l[r] != 0 {
					inv = 1 / w.l[r]
				}
				for x := range row {
					row[x] *= inv
				}
			}
			w.record(StageSoftmax, s, b, h, i0, nr, j0, nc)
		}
	}
	for r := range nr {
		y := p.Y[b*p.YL.Batch+h*p.YL.Head+(i0+r)*p.YL.Seq:][:p.HeadV]
		a := w.acc[r*p.HeadV : (r+1)*p.HeadV]
		if w.l[r] == 0 {
			if m := w.m[r]; m != m {
				// A skipped key's score is NaN or +inf (skippedPoison).
				for x := range y {
					y[x] = T(math.NaN())
				}
				continue
			}
			clear(y) // a row whose every key is masked out
			continue
		}
		for x := range y {
			y[x] = a[x] / w.l[r]
		}
	}
	return nil
}

// narrowTile is the most keys in a tile whose exponentials take one call
// for the whole tile rather than one per row: a row of a few keys is one
// vector of the exponential's loop, and a call per row cost as much as
// the exponentials themselves.
const narrowTile = 16

// softmaxTile is the online softmax's step over a tile s of nr rows of
// nc scores: each row's new maximum, the factor exp(m_old - m_new) that
// rescales what the tiles before gave (w.ecorr), the row's exponentials
// exp(s - m_new) in place and their sum added to w.l.
func (w *worker[T]) softmaxTile(s []T, nr, nc int) {
	negInf, posInf := T(math.Inf(-1)), T(math.Inf(1))
	narrow := false
	if _, is32 := any(s).([]float32); is32 && nc <= narrowTile {
		narrow = true
	}
	for r := range nr {
		row := s[r*nc : (r+1)*nc]
		mNew := max(w.m[r], rowMax(row))
		if !(mNew > negInf && mNew < posInf) && !math.IsInf(float64(mNew), -1) {
			// A NaN or +inf score: exp(s - max) is NaN for it (the spec's
			// softmax), so is the row's sum and every output. The row's
			// maximum stays NaN (max keeps a NaN) for the tiles after.
			nan := T(math.NaN())
			for x := range row {
				row[x] = nan
			}
			w.m[r], w.l[r], w.ecorr[r] = nan, nan, 1
			continue
		}
		if math.IsInf(float64(mNew), -1) {
			// Every key so far masked out: the row is zeros (the narrow
			// tile's exponential makes them of -Inf).
			for x := range row {
				row[x] = 0
				if narrow {
					row[x] = negInf
				}
			}
			w.ecorr[r] = 1
			continue
		}
		// Before the row's first key seen (m still -Inf) its sum and
		// products are +0, which exp(-Inf) = 0 and 1 leave the same
		// bits: the first tile skips the exponential.
		corr := T(1)
		if !math.IsInf(float64(w.m[r]), -1) {
			corr = expT(w.m[r] - mNew)
		}
		w.ecorr[r] = corr
		w.m[r] = mNew
		if narrow {
			// s - m_new here, rounded as the exponential's loop rounds it;
			// the exponentials below, of s - m_new - 0.
			for x := range row {
				row[x] -= mNew
			}
			continue
		}
		w.l[r] = w.l[r]*corr + expRow(row, mNew)
	}
	if !narrow {
		return
	}
	expRow(s[:nr*nc], 0)
	for r := range nr {
		if m := w.m[r]; !(m > negInf && m < posInf) {
			if m != m {
				nan := T(math.NaN())
				for x := range s[r*nc : (r+1)*nc] {
					s[r*nc+x] = nan
				}
			}
			continue
		}
		sum := T(0)
		for _, e := range s[r*nc : (r+1)*nc] {
			sum += e
		}
		w.l[r] = w.l[r]*w.ecorr[r] + sum
	}
}

// record copies the tile's scores to p.Scores when they are asked for at
// stage st.
func (w *worker[T]) record(st Stage, s []T, b, h, i0, nr, j0, nc int) {
	p := w.p
	if p.Scores == nil || p.ScoreStage != st {
		return
	}
	for r := range nr {
		at := ((b*p.QHeads+h)*p.QSeq+i0+r)*p.KVSeq + j0
		copy(p.Scores[at:at+nc], s[r*nc:(r+1)*nc])
	}
}

// mask applies the mask, the padding and the causal limit to a tile.
func (w *worker[T]) mask(s []T, b, h, i0, nr, j0, nc int) {
	p := w.p
	negInf := T(math.Inf(-1))
	hasMask := p.MaskAdd != nil || p.MaskBool != nil
	valid := p.KVSeq
	if p.ValidKeys != nil {
		valid = p.ValidKeys[b]
	}
	ms := p.MaskStrides
	for r := range nr {
		i := i0 + r
		row := s[r*nc : (r+1)*nc]
		last := p.KVSeq - 1 // the last key row i may see
		if p.Causal {
			last = min(last, i+p.CausalOffset[b])
		}
		last = min(last, valid-1)
		if hasMask {
			last = min(last, p.MaskCols-1)
			base := b*ms[0] + h*ms[1] + i*ms[2]
			for c := range min(nc, p.MaskCols-j0) {
				at := base + (j0+c)*ms[3]
				if p.MaskBool != nil {
					if p.MaskBool[at] == 0 {
						row[c] += negInf // +inf + -inf is NaN, as the spec adds
					}
				} else {
					row[c] += p.MaskAdd[at]
				}
			}
		}
		for c := max(last+1-j0, 0); c < nc; c++ {
			row[c] += negInf
		}
	}
}

// gemmT is gemm.Float32 or gemm.Float64 as T says.
func gemmT[T float32 | float64](cfg gemm.Config, transA, transB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) error {
	switch a := any(a).(type) {
	case []float32:
		return gemm.Float32(cfg, transA, transB, m, n, k, float32(alpha), a, lda, any(b).([]float32), ldb, float32(beta), any(c).([]float32), ldc)
	case []float64:
		return gemm.Float64(cfg, transA, transB, m, n, k, float64(alpha), a, lda, any(b).([]float64), ldb, float64(beta), any(c).([]float64), ldc)
	}
	return nil
}

// packT packs op(B) (k×n) into prev (a *gemm.PackedB32 or
// *gemm.PackedB64 of those sizes) or, when prev is nil, into a new one.
func packT[T float32 | float64](cfg gemm.Config, prev any, transB bool, k, n int, b []T, ldb int) (any, error) {
	switch b := any(b).(type) {
	case []float32:
		if pb, ok := prev.(*gemm.PackedB32); ok {
			return pb, pb.Repack(cfg, transB, b, ldb)
		}
		return gemm.PackB32(cfg, transB, k, n, b, ldb)
	case []float64:
		if pb, ok := prev.(*gemm.PackedB64); ok {
			return pb, pb.Repack(cfg, transB, b, ldb)
		}
		return gemm.PackB64(cfg, transB, k, n, b, ldb)
	}
	return nil, nil
}

// gemmPackedT is gemm.Float32Packed or gemm.Float64Packed as T says, with
// pb from packT.
func gemmPackedT[T float32 | float64](cfg gemm.Config, m, n, k int, alpha T, a []T, lda int, pb any, beta T, c []T, ldc int) error {
	switch a := any(a).(type) {
	case []float32:
		return gemm.Float32Packed(cfg, false, m, n, k, float32(alpha), a, lda, pb.(*gemm.PackedB32), float32(beta), any(c).([]float32), ldc)
	case []float64:
		return gemm.Float64Packed(cfg, false, m, n, k, float64(alpha), a, lda, pb.(*gemm.PackedB64), float64(beta), any(c).([]float64), ldc)
	}
	return nil
}

// rowMax is the largest element of a non-empty row (a NaN if it holds
// one), eight at a time for float32 (reduce.RowMax32).
func rowMax[T float32 | float64](row []T) T {
	if r, ok := any(row).([]float32); ok {
		return T(reduce.RowMax32(r))
	}
	m := T(math.Inf(-1))
	for _, x := range row {
		m = max(m, x)
	}
	return m
}

// expT is exp32 for float32 (reduce.Exp32), math.Exp
// for float64.
func expT[T float32 | float64](x T) T {
	if f, ok := any(x).(float32); ok {
		return T(reduce.Exp32(f))
	}
	return T(math.Exp(float64(x)))
}

// expRow sets row[i] to exp(row[i] - m) and returns their sum.
func expRow[T float32 | float64](row []T, m T) T {
	if r, ok := any(row).([]float32); ok {
		return T(reduce.ExpShifted(r, r, float32(m)))
	}
	s := T(0)
	for i, x := range row {
		e := T(math.Exp(float64(x - m)))
		row[i] = e
		s += e
	}
	return s
}

// finite reports whether x holds neither an infinity nor a NaN.
func finite[T float32 | float64](x []T) bool {
	// v - v is 0 for a finite v, NaN otherwise; four sums apart, not one
	// chain of additions (a causal block's check cost 2% of it so).
	var z0, z1, z2, z3 T
	i := 0
	for ; i+4 <= len(x); i += 4 {
		z0 += x[i] - x[i]
		z1 += x[i+1] - x[i+1]
		z2 += x[i+2] - x[i+2]
		z3 += x[i+3] - x[i+3]
	}
	for ; i < len(x); i++ {
		z0 += x[i] - x[i]
	}
	return z0+z1+z2+z3 == 0
}

// skippedPoison marks (w.m[r] = NaN) the rows [i0, i0+nr) of batch b,
// head h one of whose keys [keys, KVSeq), which the tiles skip, has a NaN
// or +inf score after the mask, causal and padding limits: the spec's
// softmax gives that row NaN. Such a score needs a non-finite value in
// the row's query, the key or the additive mask; with none (the usual
// case: one pass over the block's queries, the head's keys checked once
// per worker, the mask once per Run) nothing is computed.
func (w *worker[T]) skippedPoison(b, h, kvh, i0, nr, keys int, q, k []T) {
	p := w.p
	qFinite := true
	for r := range nr {
		if !finite(q[r*p.QL.Seq:][:p.HeadK]) {
			qFinite = false
			break
		}
	}
	bh := b*p.KVHeads + kvh
	if w.badKeyFor != bh {
		w.badKeyFor, w.badKey = bh, -1
		for j := p.KVSeq - 1; j >= 0; j-- {
			if !finite(k[j*p.KL.Seq:][:p.HeadK]) {
				w.badKey = j
				break
			}
		}
	}
	if qFinite && w.badKey < keys && !w.maskBad {
		return
	}
	negInf := T(math.Inf(-1))
	valid := p.KVSeq
	if p.ValidKeys != nil {
		valid = p.ValidKeys[b]
	}
	ms := p.MaskStrides
	for r := range nr {
		i := i0 + r
		qr := q[r*p.QL.Seq:][:p.HeadK]
		for j := keys; j < p.KVSeq; j++ {
			kj := k[j*p.KL.Seq:][:p.HeadK]
			var s T
			for d, x := range qr {
				s += x * kj[d]
			}
			s *= p.Scale
			if p.Softcap > 0 {
				c := float64(p.Softcap)
				s = T(c * math.Tanh(float64(s)/c))
			}
			if p.MaskAdd != nil || p.MaskBool != nil {
				if j >= p.MaskCols {
					s += negInf
				} else if at := b*ms[0] + h*ms[1] + i*ms[2] + j*ms[3]; p.MaskBool != nil {
					if p.MaskBool[at] == 0 {
						s += negInf
					}
				} else {
					s += p.MaskAdd[at]
				}
			}
			if p.Causal && j > i+p.CausalOffset[b] {
				s += negInf
			}
			if j >= valid {
				s += negInf
			}
			if s != s || s > 0 && math.IsInf(float64(s), 1) {
				w.m[r] = T(math.NaN())
				break
			}
		}
	}
}
