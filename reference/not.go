// Not, version 1. ONNX Operators.md:
//
// "Returns the negation of the input tensor element-wise."

package reference

import "github.com/onnxshape/onnxshape/ops"

func init() {
	register("Not", []int{1}, unary(nil, func(_ *ops.Node, x scalar) (scalar, error) {
		return boolOf(!x.b), nil
	}))
}
