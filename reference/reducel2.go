// ReduceL2 (1, 11, 13, 18): "Computes the L2 norm of the input tensor's elements along the provided
// axes ... Reduction over an empty set of values yields 0": sqrt of the sum
// of x*x, the root taken in float64.
// The axes, keepdims and noop_with_empty_axes are those of every Reduce*
// operator (reduction.go).

package reference

import (
	"iter"
	"math"
)

func init() {
	registerReduction("ReduceL2", []int{1, 11, 13, 18}, 18, sumTypes, reductionFuncs{
		reduceL2[float32], reduceL2[float64], reduceL2[int8], reduceL2[uint8], reduceL2[int32], reduceL2[uint32], reduceL2[int64], reduceL2[uint64]})
}

func reduceL2[A computeNumber](v iter.Seq[A]) A {
	s := sumLanesOf(v, func(x A) A { return A(x * x) })
	return fromFloat64[A](math.Sqrt(float64(s)))
}
