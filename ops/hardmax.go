// Hardmax computes, for each slice of the input along its axis,
// 1 at the first largest element of the slice and 0 elsewhere (a NaN counts as the largest).
// The axis and its meaning, the types and the kernel are those of the
// softmax family (softmax.go).
//
// Versions: 1 (coerced to 2-D at axis, default 1), 11 (negative axis), 13
// (along one axis, default -1; bfloat16). Types: float16, float, double,
// bfloat16; float16 and bfloat16 are computed in float32.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/reduce"
)

var hardmaxOp = softmaxOperator{name: "Hardmax", kind: reduce.Hardmax}

func init() { registerSoftmax(hardmaxOp) }
