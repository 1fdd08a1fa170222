package attention

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/parallel"
)

// Linear is one linear-attention call (the LinearAttention operator):
// for every batch and key/value head, a recurrent state S [HeadK, HeadV]
// is carried over the tokens,
//
//	S *= exp(g_t)                      (with Decay)
//	u = beta_t * (v_t - S^T k_t)       (with Beta; else u = v_t)
//	S += k_t ⊗ u
//	o_t = Scale * q_t^T S              (for each query head of the group)
//
// Q is [Batch, Seq, QHeads*HeadK], K [Batch, Seq, KVHeads*HeadK], V
// [Batch, Seq, KVHeads*HeadV] and Y [Batch, Seq, QHeads*HeadV]; query
// head h reads key/value head h / (QHeads/KVHeads). Decay is nil or
// [Batch, Seq, KVHeads] (DecayPerKey false) or [Batch, Seq,
// KVHeads*HeadK]; Beta is nil or [Batch, Seq, BetaHeads] with BetaHeads
// KVHeads or 1. State holds the past state [Batch, KVHeads, HeadK, HeadV]
// (zeros for none) and receives the present one: it is the only operand
// RunLinear writes besides Y.
type Linear struct {
	Batch, Seq, QHeads, KVHeads, HeadK, HeadV int

	Q, K, V, Y  []float32
	Decay       []float32
	DecayPerKey bool
	Beta        []float32
	BetaHeads   int
	State       []float32
	Scale       float64
}

// RunLinear computes p.Y and updates p.State. The state and the updates
// are float32 (as the spec's reference keeps them); each sum over the
// key dimension (S^T k and q^T S) is of exact float64 products, summed in
// float64 in the order of the key dimension and rounded once; exp(g) is
// rounded to float32. A token's work is a few rank-one updates and
// vector products on a state of HeadK × HeadV, which stays in the cache,
// so it is done directly rather than through gemm (the chunked WY form
// that turns it into matrix products is left for long prefills). Work is
// spread over batch × key/value heads; each part charges its scratch
// (two vectors of HeadV) and checks the context between tokens.
func RunLinear(cfg Config, p *Linear) error {
	n := p.Batch * p.KVHeads
	if n == 0 || p.Seq == 0 {
		return nil
	}
	work := n * p.Seq * p.HeadK * p.HeadV * (3 + p.QHeads/max(p.KVHeads, 1))
	return parallel.Range(cfg.Ctx, cfg.Threads, n, work, func(lo, hi int) error {
		if cfg.Charge != nil {
			if err := cfg.Charge(int64(p.HeadV) * 12); err != nil {
				return err
			}
		}
		acc := make([]float64, p.HeadV)
		u := make([]float32, p.HeadV)
		for item := lo; item < hi; item++ {
			if err := linearHead(cfg, p, item/p.KVHeads, item%p.KVHeads, acc, u); err != nil {
				return err
			}
		}
		return nil
	})
}

// linearHead runs the recurrence of batch b, key/value head h.
func linearHead(cfg Config, p *Linear, b, h int, acc []float64, u []float32) error {
	dk, dv := p.HeadK, p.HeadV
	group := p.QHeads / p.KVHeads
	s := p.State[(b*p.KVHeads+h)*dk*dv:][:dk*dv]
	for t := range p.Seq {
		if cfg.Ctx != nil && t%16 == 0 {
			if err := cfg.Ctx.Err(); err != nil {
				return err
			}
		}
		tok := b*p.Seq + t
		k := p.K[(tok*p.KVHeads+h)*dk:][:dk]
		v := p.V[(tok*p.KVHeads+h)*dv:][:dv]
		if p.Decay != nil {
			if p.DecayPerKey {
				g := p.Decay[(tok*p.KVHeads+h)*dk:][:dk]
				for d := range dk {
					scaleRow(s[d*dv:][:dv], float32(math.Exp(float64(g[d]))))
				}
			} else {
				scaleRow(s, float32(math.Exp(float64(p.Decay[tok*p.KVHeads+h]))))
			}
		}
		w := v
		if p.Beta != nil {
			beta := p.Beta[tok*p.BetaHeads+min(h, p.BetaHeads-1)]
			transposedProduct(acc, s, k, dv)
			for m := range dv {
				u[m] = float32(beta * float32(v[m]-float32(acc[m])))
			}
			w = u
		}
		for d := range dk {
			row, kd := s[d*dv:][:dv], k[d]
			for m := range dv {
				row[m] += float32(kd * w[m])
			}
		}
		for qh := h * group; qh < (h+1)*group; qh++ {
			q := p.Q[(tok*p.QHeads+qh)*dk:][:dk]
			y := p.Y[(tok*p.QHeads+qh)*dv:][:dv]
			transposedProduct(acc, s, q, dv)
			for m := range dv {
				y[m] = float32(p.Scale * acc[m])
			}
		}
	}
	return nil
}

// scaleRow multiplies every element of row by e.
func scaleRow(row []float32, e float32) {
	for i := range row {
		row[i] *= e
	}
}

// transposedProduct sets acc[m] to the sum over d of s[d][m]*x[d] (s of
// len(x) rows of dv), in float64 in the order of d.
func transposedProduct(acc []float64, s, x []float32, dv int) {
	clear(acc)
	for d, xd := range x {
		row, f := s[d*dv:][:dv], float64(xd)
		for m, sv := range row {
			acc[m] += float64(sv) * f
		}
	}
}
