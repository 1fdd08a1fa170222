package attention

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/gemm"
	"github.com/onnxshape/onnxshape/ops/internal/parallel"
)

// Dense is an attention call whose score matrix is held whole, because
// something between its stages must see all of it (FlexAttention's
// score_mod and prob_mod subgraphs take the whole [batch, heads, q seq,
// kv seq] tensor): Q [Batch, QHeads, QSeq, HeadK], K [Batch, KVHeads,
// KVSeq, HeadK], V [Batch, KVHeads, KVSeq, HeadV], Scores [Batch, QHeads,
// QSeq, KVSeq] and Y [Batch, QHeads, QSeq, HeadV]; query head h reads
// key/value head h / (QHeads/KVHeads). The caller holds Scores (it has
// charged it) and runs the stages one by one: DenseScores, then its own
// changes, DenseSoftmax, its own changes again, DenseValues.
type Dense[T float32 | float64] struct {
	Batch, QHeads, KVHeads, QSeq, KVSeq, HeadK, HeadV int

	Q, K, V, Scores, Y []T
}

// DenseScores sets Scores to Q K^T, one gemm a batch and head.
func DenseScores[T float32 | float64](cfg Config, p *Dense[T]) error {
	return p.heads(cfg, p.QSeq*p.KVSeq*p.HeadK, func(w headWork[T]) error {
		return gemmT(w.gcfg, false, true, p.QSeq, p.KVSeq, p.HeadK, 1, w.q, p.HeadK, w.k, p.HeadK, 0, w.s, p.KVSeq)
	})
}

// DenseValues sets Y to Scores V (the probabilities times the values);
// Q and K may be nil by then.
func DenseValues[T float32 | float64](cfg Config, p *Dense[T]) error {
	return p.heads(cfg, p.QSeq*p.KVSeq*p.HeadV, func(w headWork[T]) error {
		return gemmT(w.gcfg, false, false, p.QSeq, p.HeadV, p.KVSeq, 1, w.s, p.KVSeq, w.v, p.HeadV, 0, w.y, p.HeadV)
	})
}

// DenseSoftmax turns every row of Scores into probabilities: exp(x - max)
// over their sum, as the definition does, so that a row whose largest
// score is -Inf (every key masked out), +Inf or NaN becomes NaN, as the
// spec's reference gives, not zeros.
func DenseSoftmax[T float32 | float64](cfg Config, p *Dense[T]) error {
	rows, n := p.Batch*p.QHeads*p.QSeq, p.KVSeq
	if rows == 0 || n == 0 {
		return nil
	}
	return parallel.Range(cfg.Ctx, cfg.Threads, rows, rows*n*4, func(lo, hi int) error {
		for r := lo; r < hi; r++ {
			if cfg.Ctx != nil && r%64 == 0 {
				if err := cfg.Ctx.Err(); err != nil {
					return err
				}
			}
			row := p.Scores[r*n : (r+1)*n]
			m := T(math.Inf(-1))
			for _, x := range row {
				if x > m || x != x {
					m = x
				}
			}
			if math.IsInf(float64(m), 0) || m != m {
				// exp(x - m) or the sum is NaN for every x: -Inf - -Inf,
				// Inf - Inf, NaN.
				for i := range row {
					row[i] = T(math.NaN())
				}
				continue
			}
			sum := expRow(row, m)
			inv := 1 / sum
			for i := range row {
				row[i] *= inv
			}
		}
		return nil
	})
}

// headWork is one batch and query head's slices.
type headWork[T float32 | float64] struct {
	gcfg        gemm.Config
	q, k, v     []T
	s, y        []T
	batch, head int
}

// heads runs f for every batch and query head, spread over the workers;
// each worker charges packing bytes of gemm scratch once (gemm packs at
// most its B, in buffers it pools) and the context is checked between
// heads.
func (p *Dense[T]) heads(cfg Config, work int, f func(headWork[T]) error) error {
	n := p.Batch * p.QHeads
	if n == 0 || p.QSeq == 0 {
		return nil
	}
	// The products charge their packing scratch through one account, a
	// slot per worker: the most each worker holds, not once a product.
	scratch := new(gemm.Scratch)
	return parallel.RangeW(cfg.Ctx, cfg.Threads, n, n*work, func(wk, lo, hi int) error {
		slot := scratch.Slot(wk)
		for item := lo; item < hi; item++ {
			if cfg.Ctx != nil {
				if err := cfg.Ctx.Err(); err != nil {
					return err
				}
			}
			b, h := item/p.QHeads, item%p.QHeads
			kvh := b*p.KVHeads + h/(p.QHeads/p.KVHeads)
			bh := b*p.QHeads + h
			w := headWork[T]{gcfg: gemm.Config{Ctx: cfg.Ctx, Threads: 1, Charge: cfg.Charge, Scratch: slot}, batch: b, head: h,
				s: p.Scores[bh*p.QSeq*p.KVSeq:][:p.QSeq*p.KVSeq]}
			if p.Q != nil && p.K != nil {
				w.q = p.Q[bh*p.QSeq*p.HeadK:][:p.QSeq*p.HeadK]
				w.k = p.K[kvh*p.KVSeq*p.HeadK:][:p.KVSeq*p.HeadK]
			}
			if p.V != nil {
				w.v = p.V[kvh*p.KVSeq*p.HeadV:][:p.KVSeq*p.HeadV]
			}
			if p.Y != nil {
				w.y = p.Y[bh*p.QSeq*p.HeadV:][:p.QSeq*p.HeadV]
			}
			if err := f(w); err != nil {
				return err
			}
		}
		return nil
	})
}
