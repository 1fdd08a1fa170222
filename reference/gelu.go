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
	"math"

	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Gelu", []int{20}, float32Unary(elementwiseOp{prepare: geluApproximation}, func(c call, x float32) float32 {
		if approximate, _ := c.n.Str("approximate", "none"); approximate == "tanh" {
			return geluTanh32(x)
		}
		return gelu32(x)
	}, func(c call, x scalar) scalar {
		v := x.f
		if approximate, _ := c.n.Str("approximate", "none"); approximate == "tanh" {
			return floatOf(0.5 * v * (1 + math.Tanh(math.Sqrt(2/math.Pi)*(v+0.044715*v*v*v))))
		}
		return floatOf(0.5 * v * (1 + math.Erf(v/math.Sqrt2)))
	}))
}

// geluApproximation is the [approximate] rule: none or tanh.
func geluApproximation(c call, _ []*tensor.Tensor) error {
	approximate, err := c.n.Str("approximate", "none")
	if err != nil {
		return err
	}
	if approximate != "none" && approximate != "tanh" {
		return c.op.errorf("approximate", "approximate is %q; it is none or tanh", approximate)
	}
	return nil
}
