// ReduceSumSquare (1, 11, 13, 18): "Computes the sum square of the input tensor's elements along the
// provided axes ... Reduction over an empty set of values yields 0."
// The axes, keepdims and noop_with_empty_axes are those of every Reduce*
// operator (reduction.go).

package reference

import "iter"

func init() {
	registerReduction("ReduceSumSquare", []int{1, 11, 13, 18}, 18, sumTypes, reductionFuncs{
		reduceSumSquare[float32], reduceSumSquare[float64], reduceSumSquare[int8], reduceSumSquare[uint8], reduceSumSquare[int32], reduceSumSquare[uint32], reduceSumSquare[int64], reduceSumSquare[uint64]})
}

func reduceSumSquare[A computeNumber](v iter.Seq[A]) A {
	return sumLanesOf(v, func(x A) A { return A(x * x) })
}
