// ReduceLogSum (1, 11, 13, 18): "Computes the log sum of the input tensor's elements along the provided
// axes ... Reduction over an empty set of values yields minus infinity":
// log of the sum, the log taken in float64.
// The axes, keepdims and noop_with_empty_axes are those of every Reduce*
// operator (reduction.go).

package reference

import (
	"iter"
	"math"
)

func init() {
	registerReduction("ReduceLogSum", []int{1, 11, 13, 18}, 18, sumTypes, reductionFuncs{
		reduceLogSum[float32], reduceLogSum[float64], reduceLogSum[int8], reduceLogSum[uint8], reduceLogSum[int32], reduceLogSum[uint32], reduceLogSum[int64], reduceLogSum[uint64]})
}

func reduceLogSum[A computeNumber](v iter.Seq[A]) A {
	return fromFloat64[A](math.Log(float64(reduceSum(v))))
}
