// ReduceLogSumExp (1, 11, 13, 18): "Computes the log sum exponent of the input tensor's elements along the
// provided axes ... Reduction over an empty set of values yields minus
// infinity": log(sum(exp(x))), written m + log(sum(exp(x - m))) with m the
// largest element so that exp does not overflow, each term summed in the
// order of sumlanes.go and the result float64(m) + log(float64(sum))
// rounded once. The term of float32 (float16 and bfloat16 are computed in
// float32) is exp32(x - m), the float32 exponential of Softmax
// (exp32.go), the subtraction rounded to float32 first; that of float64
// math.Exp(x - m); that of an integer type math.Exp(float64(x) -
// float64(m)) truncated. When m is infinite the result is m.
//
// Error of float32 against the exact log-sum-exp of the same inputs, to
// first order: the rounding of d = x - m changes a term e^d by at most
// e^d*|d|*2^-24 <= 2^-24/e, exp32 is within 0.9 ulp (1.8 * 2^-24
// relatively), the positive sum of n terms in the lane order is within
// (n/16 + 4) * 2^-24 relatively, and the sum s is at least 1 (the term of
// m itself), so s is within (0.37n + n/16 + 6) * 2^-24 relatively, which
// the logarithm turns into an absolute error; with the final rounding,
// |y - exact| <= ulp(y)/2 + (n/2 + 6) * 2^-24 (TestLogSumExpBound in
// ops/internal/reduce enforces it on random rows of several lengths).

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
	s := sumLanesOf(v, func(x A) A { return logSumExpTerm(x, m) })
	return fromFloat64[A](float64(m) + math.Log(float64(s)))
}

// logSumExpTerm is exp(x - m), the term of ReduceLogSumExp in A: exp32 of
// the float32 difference for float32, math.Exp for float64 and, for the
// integer types, math.Exp of the float64 difference converted to A.
func logSumExpTerm[A computeNumber](x, m A) A {
	switch xv := any(x).(type) {
	case float32:
		return A(exp32(xv - any(m).(float32)))
	case float64:
		return A(math.Exp(xv - any(m).(float64)))
	}
	return fromFloat64[A](math.Exp(float64(x) - float64(m)))
}
