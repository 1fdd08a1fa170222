// Softmax computes, for each slice of the input along its axis,
// exp(x - m) / sum(exp(x - m)), m the largest element of the slice (which changes nothing in exact arithmetic and keeps exp from overflowing).
// The axis and its meaning, the types and the kernel are those of the
// softmax family (softmaxfamily.go).
//
// Versions: 1 (coerced to 2-D at axis, default 1), 11 (negative axis), 13
// (along one axis, default -1; bfloat16). Types: float16, float, double,
// bfloat16; float16 and bfloat16 are computed in float32. The exponential
// of float32 is exp32, a fixed float32 algorithm within 0.9 units in the
// last place (reference/exp32.go); that of double, and every one under
// the SONNX profile (whose softmax "refers to ONNX operator exp"), is
// math.Exp rounded to the computing type. Sums are in the lane order of
// reference/sumlanes.go.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/reduce"
	"github.com/onnxshape/onnxshape/tensor"
)

var softmaxOp = softmaxOperator{name: "Softmax", kind: reduce.Softmax}

func init() { registerSoftmax(softmaxOp) }

// Softmax returns the softmax of x along axis (ONNX Softmax, version 13).
func Softmax(x *tensor.Tensor, axis int, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Softmax", 13}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return softmaxOp.run(opt, op, x, int64(axis))
}
