// Softmax (1, 11, 13): "Softmax(input, axis) = Exp(input) /
// ReduceSum(Exp(input), axis=axis, keepdims=1)", computed as the reference
// evaluator does with the slice's largest element m subtracted first (no
// change in exact arithmetic, and exp cannot overflow): e = exp(x - m) in
// float64 rounded to the computing type, their sum s in order, e / s.
// (softmaxfamily.go)

package reference

import "math"

func init() { registerSoftmaxFamily("Softmax", softmax[float32], softmax[float64]) }

func softmax[A float32 | float64](v []A) []A {
	m := sliceMax(v)
	e := make([]A, len(v))
	var s A
	for i, x := range v {
		e[i] = A(math.Exp(float64(x - m)))
		s += e[i]
	}
	for i := range e {
		e[i] /= s
	}
	return e
}
