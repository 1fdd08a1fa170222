// ReduceLogSumExp (1, 11, 13, 18): "Computes the log sum exponent of the input tensor's elements along the
// provided axes ... Reduction over an empty set of values yields minus
// infinity": log(sum(exp(x))), written m + log(sum(exp(x - m))) with m the
// largest element so that exp does not overflow (each exp in float64,
// rounded, summed in the order of sumlanes.go). When m is infinite the result is m.
// The axes, keepdims and noop_with_empty_axes are those of every Reduce*
// operator (reduction.go).

package reference

import (
	"iter"
	"math"
)

func init() {
	registerReduction("ReduceLogSumExp", []int{1, 11, 13, 18}, 18, sumTypes, reductionFuncs{
		reduceLogSumExp[float32], reduceLogSumExp[float64], reduceLogSumExp[int8], reduceLogSumExp[uint8], reduceLogSumExp[int32], reduceLogSumExp[uint32], reduceLogSumExp[int64], reduceLogSumExp[uint64]})
}

func reduceLogSumExp[A computeNumber](v iter.Seq[A]) A {
	if count(v) == 0 {
		return fromFloat64[A](math.Inf(-1))
	}
	m := reduceMax(v)
	if math.IsInf(float64(m), 0) {
		return m
	}
	s := sumLanesOf(v, func(x A) A { return fromFloat64[A](math.Exp(float64(x) - float64(m))) })
	return fromFloat64[A](float64(m) + math.Log(float64(s)))
}
