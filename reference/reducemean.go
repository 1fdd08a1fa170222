// ReduceMean (1, 11, 13, 18): "Computes the mean of the input tensor's elements along the provided
// axes ... Reduction over an empty set of values yields undefined": here NaN,
// or 0 for an integer type (whose mean truncates toward zero).
// The axes, keepdims and noop_with_empty_axes are those of every Reduce*
// operator (reduction.go).

package reference

import "iter"

func init() {
	registerReduction("ReduceMean", []int{1, 11, 13, 18}, 18, sumTypes, reductionFuncs{
		reduceMean[float32], reduceMean[float64], reduceMean[int8], reduceMean[uint8], reduceMean[int32], reduceMean[uint32], reduceMean[int64], reduceMean[uint64]})
}

func reduceMean[A computeNumber](v iter.Seq[A]) A {
	n := count(v)
	if n == 0 && !isFloatType[A]() {
		return 0
	}
	return reduceSum(v) / A(n)
}
