// BitwiseNot, version 18. ONNX Operators.md:
//
// "Returns the bitwise not of the input tensor element-wise."

package reference

import "github.com/onnxshape/onnxshape/ops"

func init() {
	register("BitwiseNot", []int{18}, unary(nil, func(_ *ops.Node, x scalar) (scalar, error) {
		if x.kind == signedKind {
			return signedOf(^x.i), nil
		}
		return unsignedOf(^x.u), nil
	}))
}
