// ReduceSum (1, 11, 13): "Computes the sum of the input tensor's elements along the provided
// axes ... Reduction over an empty set of values yields 0."
// The axes, keepdims and noop_with_empty_axes are those of every Reduce*
// operator (reduction.go).

package reference

import "iter"

func init() {
	registerReduction("ReduceSum", []int{1, 11, 13}, 13, sumTypes, reductionFuncs{
		reduceSum[float32], reduceSum[float64], reduceSum[int8], reduceSum[uint8], reduceSum[int32], reduceSum[uint32], reduceSum[int64], reduceSum[uint64]})
}

// reduceSum adds the elements in the order of every reduction (sumlanes.go).
func reduceSum[A computeNumber](v iter.Seq[A]) A {
	return sumLanes(v)
}
