// Softmax (1, 11, 13): "Softmax(input, axis) = Exp(input) /
// ReduceSum(Exp(input), axis=axis, keepdims=1)", computed as the reference
// evaluator does with the slice's largest element m subtracted first (no
// change in exact arithmetic, and exp cannot overflow): e = exp(x - m),
// their sum s in the order of sumlanes.go, e / s. The exponential of float32
// is exp32 (exp32.go), that of double math.Exp; under SONNX, whose
// softmax.md says that the exponential "refers to ONNX operator exp", it is
// always the Exp operator's, math.Exp rounded to the computing type. A
// slice of -inf only gives NaN (0/0) as ONNX's reference does, and under
// SONNX 0, as the working group's softmax.md writes it ("0, if X[i] = -inf
// and no element of the slice is NaN or +inf").
// (softmaxfamily.go)

package reference

import (
	"iter"
	"math"
)

func init() { registerSoftmaxFamily("Softmax", softmax[float32], softmax[float64]) }

func softmax[A float32 | float64](v iter.Seq[A], sonnx bool) func(int, A) A {
	m := sliceMax(v)
	if sonnx && math.IsInf(float64(m), -1) {
		return func(int, A) A { return 0 } // softmax.md: "0, if X[i] = -inf" and no NaN or +inf
	}
	s := sumLanesOf(v, func(x A) A { return softmaxExp(x-m, sonnx) })
	return func(_ int, x A) A { return softmaxExp(x-m, sonnx) / s }
}

// softmaxExp is the exponential of the softmax family: exp32 for float32,
// unless expOperator asks for the Exp operator's, math.Exp rounded.
func softmaxExp[A float32 | float64](x A, expOperator bool) A {
	if f, ok := any(x).(float32); ok && !expOperator {
		return A(exp32(f))
	}
	return A(math.Exp(float64(x)))
}
