// Erf, versions 9, 13. ONNX Operators.md:
//
// "Computes the error function of the given input tensor element-wise."
//
// An integer input (version 9) gives erf(x) stored in the integer type:
// truncated toward zero.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
)

func init() {
	register("Erf", []int{9, 13}, unary(nil, func(_ *ops.Node, x scalar) (scalar, error) {
		return floatOf(math.Erf(realOf(x))), nil
	}))
}
