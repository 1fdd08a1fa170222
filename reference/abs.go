// Abs, versions 1, 6, 13. ONNX Operators.md:
//
// "Absolute takes one input data (Tensor<T>) and produces one output data
// (Tensor<T>) where absolute value, y = abs(x), is applied to the tensor
// elementwise."

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
)

func init() {
	register("Abs", []int{1, 6, 13}, unary(nil, func(_ *ops.Node, x scalar) (scalar, error) {
		switch x.kind {
		case signedKind:
			if x.i < 0 {
				return signedOf(-x.i), nil // the least value wraps to itself when stored
			}
			return x, nil
		case unsignedKind:
			return x, nil
		}
		return floatOf(math.Abs(x.f)), nil
	}))
}
