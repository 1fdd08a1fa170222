// LogSoftmax (1, 11, 13): "LogSoftmax(input, axis) = Log(Softmax(input,
// axis=axis))", computed as (x - m) - log(s), m the slice's largest
// element and s the sum of exp(x - m) (Softmax's exponential, softmax.go,
// summed in the order of sumlanes.go). (softmaxfamily.go)

package reference

import (
	"iter"
	"math"
)

func init() { registerSoftmaxFamily("LogSoftmax", logSoftmax[float32], logSoftmax[float64]) }

func logSoftmax[A float32 | float64](v iter.Seq[A], _ bool) func(int, A) A {
	m := sliceMax(v)
	s := sumLanesOf(v, func(x A) A { return softmaxExp(x-m, false) })
	ls := A(math.Log(float64(s)))
	return func(_ int, x A) A { return (x - m) - ls }
}
