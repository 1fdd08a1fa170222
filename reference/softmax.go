// Softmax (1, 11, 13): "Softmax(input, axis) = Exp(input) /
// ReduceSum(Exp(input), axis=axis, keepdims=1)", computed as the reference
// evaluator does with the slice's largest element m subtracted first (no
// change in exact arithmetic, and exp cannot overflow): e = exp(x - m) in
// float64 rounded to the computing type, their sum s in the order of sumlanes.go, e / s. A
// slice of -inf only gives NaN (0/0) as ONNX's reference does, and under
// SONNX 0, as the working group's softmax.md writes it ("0, if X[i] = -inf
// and no element of the slice is NaN or +inf").
// (softmaxfamily.go)

package reference

import "math"

func init() { registerSoftmaxFamily("Softmax", softmax[float32], softmax[float64]) }

func softmax[A float32 | float64](v []A, sonnx bool) []A {
	m := sliceMax(v)
	e := make([]A, len(v))
	if sonnx && math.IsInf(float64(m), -1) {
		return e // softmax.md: "0, if X[i] = -inf" and no NaN or +inf
	}
	for i, x := range v {
		e[i] = A(math.Exp(float64(x - m)))
	}
	s := sumLanes(e)
	for i := range e {
		e[i] /= s
	}
	return e
}
