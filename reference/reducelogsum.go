// ReduceLogSum (1, 11, 13, 18): "Computes the log sum of the input tensor's elements along the provided
// axes ... Reduction over an empty set of values yields minus infinity":
// log of the sum (summed in the order of sumlanes.go). The log of float32
// (float16 and bfloat16 are computed in float32) is log32, Cephes' logf
// in float32 steps (float32math.go), within 1.5 ulps of the exact log of
// the rounded sum (the engine's mathf tests measure 0.78), so that a
// vector unit takes sixteen outputs at once; that of float64 and of the
// integer types math.Log in float64, converted to the type.
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
	s := reduceSum(v)
	if f, ok := any(s).(float32); ok {
		return A(log32(f))
	}
	return fromFloat64[A](math.Log(float64(s)))
}
