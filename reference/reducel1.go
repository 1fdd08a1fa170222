// ReduceL1 (1, 11, 13, 18): "Computes the L1 norm of the input tensor's elements along the provided
// axes ... Reduction over an empty set of values yields 0": the sum of |x|.
// The axes, keepdims and noop_with_empty_axes are those of every Reduce*
// operator (reduction.go).

package reference

import "iter"

func init() {
	registerReduction("ReduceL1", []int{1, 11, 13, 18}, 18, sumTypes, reductionFuncs{
		reduceL1[float32], reduceL1[float64], reduceL1[int8], reduceL1[uint8], reduceL1[int32], reduceL1[uint32], reduceL1[int64], reduceL1[uint64]})
}

func reduceL1[A computeNumber](v iter.Seq[A]) A {
	return sumLanesOf(v, func(x A) A {
		if x < 0 {
			return -x
		}
		return x
	})
}
