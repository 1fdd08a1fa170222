package gemm

import (
	"fmt"
	"unsafe"

	"github.com/onnxshape/onnxshape/ops/internal/parallel"
)

// Products with few columns and many rows (a convolution over a 7x7
// plane: ResNet-50's last stage, M 512 or 2048 output channels, K up to
// 4608, N 49 positions) waste lanes in the usual tile, whose rows of C lie
// along the vectors: 49 columns take 4 vectors of 16 at every step of k
// where 3.06 would do. The transposed tile puts C's rows on the lanes
// instead (C^T = B^T A^T): A, the constant weights, packed once in panels
// of 32 rows (PackAT32), two vectors per step of k; B read in place, one
// element of a row broadcast per column of the tile. For each panel of 32
// rows and block of k, the block of the panel (32 KB at kc 256) stays in
// L1 while every tile of columns passes over it; the tiles' sums wait
// between blocks in a small scratch, transposed (32 rows a column, plain
// vector loads and stores), and C is written once, after the last block,
// by a scatter. While a block's tiles run, the kernel prefetches the next
// block of A into L2, a line a step: left to the first tile that reads
// it, the block comes from L3 at twice what one core gets (measured: the
// product ran 0.6-0.9x the usual tiles' speed without, 1.05-1.4x with).
// Each element of C is the same ordered sum as in Float32Finish (blocks
// of kcFor(k) steps, each summed from zero by fused multiply-adds and
// added to the blocks before in one rounding), so the bits are the same
// (TestTransposedBits).

// mrT and nrT are the transposed tile's rows (two vectors) and most
// columns.
const (
	mrT = 32
	nrT = 12
)

// PackedAT32 is A (m×k, float32) packed for Float32PackedAT: panels of
// 32 rows, panel q holding element (q*32+r, p) at q*k*32 + p*32 + r, zero
// past row m.
type PackedAT32 struct {
	m, k int
	data []float32
}

// M and K are the rows and the steps of k of the packed matrix.
func (pa *PackedAT32) M() int { return pa.m }

// K: see M.
func (pa *PackedAT32) K() int { return pa.k }

// Data is the packed elements (tests spoil them to see that a caller
// reads them).
func (pa *PackedAT32) Data() []float32 { return pa.data }

// Bytes is the memory pa holds (0 for nil).
func (pa *PackedAT32) Bytes() int64 {
	if pa == nil {
		return 0
	}
	return 4 * int64(len(pa.data))
}

// TransposedPays reports whether a product of m rows, n columns over k
// runs faster with C's rows on the lanes (Float32PackedAT) than with the
// usual tiles (Float32Finish) on this machine: the kernel is there (AVX-512),
// the usual tile wastes a fifth of its lanes or more on the columns, and
// there are rows enough to fill the transposed tile's 32 lanes.
func TransposedPays(m, n, k int) bool {
	if !haveTransposed || m < 2*mrT || n <= 0 || n > 64 || k <= 0 {
		return false
	}
	// Vectors of 16 lanes a row of C takes in the usual tiles (32-column
	// panels, a last panel of at most 16 columns in one vector).
	full, rest := n/32, n%32
	vecs := 2 * full
	switch {
	case rest > 16:
		vecs += 2
	case rest > 0:
		vecs++
	}
	return vecs*16*4 >= n*5 // lanes used over lanes spent <= 0.8
}

// PackAT32 packs A (m×k, row-major, row stride lda) for Float32PackedAT,
// charging cfg.Charge for the copy first.
func PackAT32(cfg Config, m, k int, a []float32, lda int) (*PackedAT32, error) {
	if err := check("A", m, k, lda, len(a)); err != nil {
		return nil, err
	}
	panels := (m + mrT - 1) / mrT
	elems := panels * mrT * k
	if cfg.Charge != nil {
		if err := cfg.Charge(int64(elems) * 4); err != nil {
			return nil, err
		}
	}
	pa := &PackedAT32{m: m, k: k, data: make([]float32, elems)}
	for q := range panels {
		if err := cfg.err(); err != nil {
			return nil, err
		}
		d := pa.data[q*k*mrT : (q+1)*k*mrT]
		rows := min(mrT, m-q*mrT)
		for r := range rows {
			src := a[(q*mrT+r)*lda : (q*mrT+r)*lda+k]
			for p, v := range src {
				d[p*mrT+r] = v
			}
		}
	}
	return pa, nil
}

// Float32PackedAT computes C = A*B for A packed by PackAT32 (m×k), B k×n
// (row-major, row stride ldb, read in place) and C m×n (row stride ldc,
// not read), then finishes each element of C as fin says: the bits of
// Float32Finish(cfg, m, n, k, A, lda, b, ldb, c, ldc, fin). No scratch;
// the row panels are split over cfg.Threads cores.
func Float32PackedAT(cfg Config, m, n, k int, pa *PackedAT32, b []float32, ldb int, c []float32, ldc int, fin Finish) error {
	if err := check("B", k, n, ldb, len(b)); err != nil {
		return err
	}
	if pa == nil || pa.m != m || pa.k != k {
		return fmt.Errorf("%w: packed A is not %dx%d", ErrShape, m, k)
	}
	if err := check("C", m, n, ldc, len(c)); err != nil {
		return err
	}
	f, ok, err := fin.internal(m, n)
	if err != nil {
		return err
	}
	if m == 0 || n == 0 {
		return cfg.err()
	}
	if k == 0 || !haveTransposed || int64(mrT)*int64(ldc)*4 >= 1<<31 {
		// No kernel, or offsets of C past the scatter's int32 indices.
		return unpackedAT(cfg, m, n, k, pa, b, ldb, c, ldc, fin)
	}
	panels := (m + mrT - 1) / mrT
	work := int(min(float64(m)*float64(n)*float64(k)/32, 1<<40))
	workers := max(cfg.Threads, 1)
	if work < parallel.Work {
		workers = 1
	}
	workers = min(workers, panels)
	// Each worker's sums between blocks of k: 32 rows a column.
	ctElems := 0
	if k > kcFor(k) {
		ctElems = n * mrT
	}
	scratch := int64(ctElems) * 4 * int64(workers)
	if err := cfg.Scratch.take(cfg, scratch); err != nil {
		return err
	}
	defer cfg.Scratch.give(scratch)
	st := transposedState{pa: pa, m: m, n: n, k: k, kcb: kcFor(k), ctElems: ctElems, b: b, ldb: ldb, c: c, ldc: ldc, cfg: cfg}
	if ok {
		st.fin = &f
	}
	if workers == 1 {
		return st.part(0, panels)
	}
	return parallel.Range(cfg.Ctx, workers, panels, work, st.part)
}

// transposedState is what a part of Float32PackedAT reads.
type transposedState struct {
	pa           *PackedAT32
	m, n, k      int
	kcb, ctElems int
	b, c         []float32
	ldb, ldc     int
	cfg          Config
	fin          *finish[float32]
}

// part computes the row panels [lo, hi).
func (s *transposedState) part(lo, hi int) error {
	var idx [16]int32
	for r := range idx {
		idx[r] = int32(r * s.ldc * 4)
	}
	var ct []float32
	if s.ctElems > 0 {
		p := getBuf[float32](s.ctElems)
		defer putBuf(p)
		ct = *p
	} else {
		ct = make([]float32, 1) // never read: one block
	}
	// The columns in tiles of at most nrT columns, as equal as they come
	// (49 is 10+10+10+10+9).
	tiles := (s.n + nrT - 1) / nrT
	for q := lo; q < hi; q++ {
		i0 := q * mrT
		rows := min(mrT, s.m-i0)
		var bias []float32
		var clamp *[2]float32
		if s.fin != nil {
			bias, clamp = s.fin.rows(i0), s.fin.clamp
		}
		for pc := 0; pc < s.k; pc += s.kcb {
			if err := s.cfg.err(); err != nil {
				return err
			}
			kc := min(s.kcb, s.k-pc)
			flags := 0
			if pc == 0 {
				flags |= 1
			}
			if pc+kc == s.k {
				flags |= 2
			}
			a := s.pa.data[(q*s.k+pc)*mrT : (q*s.k+pc+kc)*mrT]
			// The next block of A (the next panel's first after the last),
			// a line a step, kc lines per tile.
			next := uintptr(unsafe.Pointer(unsafe.SliceData(s.pa.data))) + uintptr((q*s.k+pc+kc)*mrT*4)
			t := 0 // tiles so far in this block: each prefetches its kc lines
			for u := range tiles {
				j0, j1 := u*s.n/tiles, (u+1)*s.n/tiles
				var colBias []float32
				if s.fin != nil {
					colBias = s.fin.cols(j0)
				}
				tileT(rows, j1-j0, kc, a, s.b[pc*s.ldb+j0:], s.ldb, ct[min(j0*mrT, len(ct)-1):], flags, s.c[i0*s.ldc+j0:], s.ldc, &idx, bias, clamp, colBias, next+uintptr(t*kc*64))
				t++
			}
		}
	}
	return nil
}

// unpackedAT is Float32PackedAT without the kernel: A unpacked into
// scratch (taken through cfg.Scratch) and multiplied by Float32Finish,
// whose bits Float32PackedAT promises.
func unpackedAT(cfg Config, m, n, k int, pa *PackedAT32, b []float32, ldb int, c []float32, ldc int, fin Finish) error {
	bytes := int64(m) * int64(k) * 4
	if err := cfg.Scratch.take(cfg, bytes); err != nil {
		return err
	}
	defer cfg.Scratch.give(bytes)
	buf := getBuf[float32](m * k)
	defer putBuf(buf)
	a := *buf
	for i := range m {
		src := pa.data[(i/mrT)*k*mrT+i%mrT:]
		row := a[i*k : (i+1)*k]
		for p := range row {
			row[p] = src[p*mrT]
		}
	}
	return Float32Finish(cfg, m, n, k, a, k, b, ldb, c, ldc, fin)
}
