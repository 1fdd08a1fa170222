package quant

import (
	"context"
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/parallel"
)

// The fast paths of QuantizeLinear (float32 x and scale, computed in
// float32, to uint8 or int8) and DequantizeLinear (uint8 or int8 x to a
// float32 scale), per tensor or per axis: each run of Inner elements that
// shares one scale is a plain loop with the scale and zero point hoisted.
// Each gives what the general float64 path gives, bit for bit:
//   - quantize: the float64 quotient of two float32s rounded to float32 is
//     the float32 quotient (the double rounding is innocuous), rounded
//     half to even; NaN and values outside int32 become math.MinInt32, the
//     zero point is added with int32 wrap-around, then the sum is clamped
//     to the output type's range, as the general path does;
//   - dequantize: (x - zero_point) has at most 9 significant bits, so its
//     product with a float32 scale is exact in float64 and rounds once to
//     the float32 product.
//
// On amd64 with AVX-512 (not under purego), vector_amd64.s does sixteen
// elements a step with the same operations in the same order.

// Int8 are the quantized types of the fast paths.
type Int8 interface{ ~uint8 | ~int8 }

// quantizeOne is one element of QuantizeLinear's integer path.
func quantizeOne(x, s float32, z, lo, hi int64) int64 {
	r := math.RoundToEven(float64(x / s))
	if r != r || r >= 1<<31 || r < -(1<<31) {
		r = math.MinInt32
	}
	return min(max(int64(int32(int64(r)+z)), lo), hi)
}

// runs calls f for each run of inner elements that share a scale, split
// across the cores, polling ctx between pieces.
func (q Layout) runs(ctx context.Context, threads, n int, f func(lo, hi, k int)) error {
	inner, dim := n, 1
	if !q.PerTensor {
		inner, dim = q.Inner, q.Dim
	}
	if inner == 0 || n == 0 {
		return nil
	}
	const piece = 1 << 15
	pieces := (inner + piece - 1) / piece
	total := n / inner * pieces
	// The cores take eight pieces at a time in turn (parallel.Shared): one
	// that starts late or runs slow does not leave the other idle.
	return parallel.Shared(ctx, threads, total, 8, n, func(a, b int) error {
		for u := a; u < b; u++ {
			if ctx != nil {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			r, p := u/pieces, u%pieces
			start := r*inner + p*piece
			f(start, min(start+piece, (r+1)*inner), r%dim)
		}
		return nil
	})
}

// Fast reports whether the layout has a fast path: per tensor or per axis.
func (q Layout) Fast() bool { return q.Block == 0 }

// Quantize is QuantizeLinear's fast path: o[i] from x[i] with scale s[k]
// and zero point z[k] (z nil: 0), clamped to [lo, hi].
func Quantize[T Int8](ctx context.Context, threads int, q Layout, o []T, x, s []float32, z []T, lo, hi int64) error {
	return q.runs(ctx, threads, len(o), func(a, b, k int) {
		sk, zk := s[k], int64(0)
		if z != nil {
			zk = int64(z[k])
		}
		oo, xx := o[a:b], x[a:b]
		v := quantizeVector(oo, xx, sk, zk, lo, hi)
		oo, xx = oo[v:], xx[v:]
		for i := range oo {
			oo[i] = T(quantizeOne(xx[i], sk, zk, lo, hi))
		}
	})
}

// Dequantize is DequantizeLinear's fast path: o[i] = (x[i] - z[k]) * s[k].
func Dequantize[T Int8](ctx context.Context, threads int, q Layout, o []float32, x []T, s []float32, z []T) error {
	return q.runs(ctx, threads, len(o), func(a, b, k int) {
		sk, zk := s[k], int32(0)
		if z != nil {
			zk = int32(z[k])
		}
		oo, xx := o[a:b], x[a:b]
		v := dequantizeVector(oo, xx, sk, zk)
		oo, xx = oo[v:], xx[v:]
		for i := range oo {
			oo[i] = float32(int32(xx[i])-zk) * sk
		}
	})
}
