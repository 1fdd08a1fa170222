// Gelu, version 20. ONNX Operators.md:
//
// "Gelu takes one input data (Tensor<T>) and produces one output data
// (Tensor<T>) where the gaussian error linear units function, y = 0.5 * x
// * (1 + erf(x/sqrt(2))) is applied to the tensor elementwise. If the
// attribute "approximate" is set to "tanh", the function estimation, y =
// 0.5 * x * (1 + Tanh(sqrt(2/π) * (x + 0.044715 * x^3))) is used and
// applied to the tensor elementwise."

package reference

import (
	"fmt"
	"math"

	"github.com/onnxshape/onnxshape/ops"
)

func init() {
	register("Gelu", []int{20}, unary(nil, func(n *ops.Node, x scalar) (scalar, error) {
		v := x.f
		switch approximate, _ := n.Str("approximate", "none"); approximate {
		case "none":
			return floatOf(0.5 * v * (1 + math.Erf(v/math.Sqrt2))), nil
		case "tanh":
			return floatOf(0.5 * v * (1 + math.Tanh(math.Sqrt(2/math.Pi)*(v+0.044715*v*v*v)))), nil
		default:
			return x, fmt.Errorf("approximate %q is not none or tanh", approximate)
		}
	}))
}
