// ReduceMin (1, 11, 12, 13, 18, 20): "Computes the min of the input tensor's elements along the provided
// axes ... Reduction over an empty set of values yields plus infinity (if
// supported by the datatype) or the maximum value of the data type
// otherwise" (true for bool). A NaN propagates: the first NaN is the result.
// The axes, keepdims and noop_with_empty_axes are those of every Reduce*
// operator (reduction.go).

package reference

import "iter"

func init() {
	registerReduction("ReduceMin", []int{1, 11, 12, 13, 18, 20}, 18, maxMinTypes, reductionFuncs{
		reduceMin[float32], reduceMin[float64], reduceMin[int8], reduceMin[uint8], reduceMin[int32], reduceMin[uint32], reduceMin[int64], reduceMin[uint64]})
}

func reduceMin[A computeNumber](v iter.Seq[A]) A {
	m := highestOf[A]()
	for x := range v {
		if x != x {
			return x
		}
		if x < m {
			m = x
		}
	}
	return m
}
