// Neg, versions 1, 6, 13. ONNX Operators.md:
//
// "Neg takes one input data (Tensor<T>) and produces one output data
// (Tensor<T>) where each element flipped sign, y = -x, is applied to the
// tensor elementwise."

package reference

import "github.com/onnxshape/onnxshape/ops"

func init() {
	register("Neg", []int{1, 6, 13}, unary(nil, func(_ *ops.Node, x scalar) (scalar, error) {
		if x.kind == signedKind {
			return signedOf(-x.i), nil // the least value wraps to itself when stored
		}
		return floatOf(-x.f), nil
	}))
}
