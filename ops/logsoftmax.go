// LogSoftmax computes, for each slice of the input along its axis,
// (x - m) - log(sum(exp(x - m))), m the largest element of the slice.
// The axis and its meaning, the types and the kernel are those of the
// softmax family (softmax.go).
//
// Versions: 1 (coerced to 2-D at axis, default 1), 11 (negative axis), 13
// (along one axis, default -1; bfloat16). Types: float16, float, double,
// bfloat16; float16 and bfloat16 are computed in float32. The exponential
// of float32 is exp32, a fixed float32 algorithm within 0.9 units in the
// last place (reference/exp32.go); that of double is math.Exp. Sums are
// in the lane order of reference/sumlanes.go.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/reduce"
)

var logSoftmaxOp = softmaxOperator{name: "LogSoftmax", kind: reduce.LogSoftmax}

func init() { registerSoftmax(logSoftmaxOp) }
