// IsNaN, versions 9, 13, 20. ONNX Operators.md:
//
// "Returns which elements of the input are NaN."

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("IsNaN", []int{9, 13, 20}, unary(toBool, func(_ *ops.Node, x scalar) (scalar, error) {
		return boolOf(math.IsNaN(x.f)), nil
	}))
}

func toBool(tensor.DataType) tensor.DataType { return tensor.Bool }
