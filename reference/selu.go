// Selu, versions 1, 6, 22. ONNX Operators.md:
//
// "Selu takes one input data (Tensor<T>) and produces one output data
// (Tensor<T>) where the scaled exponential linear unit function, y = gamma
// * (alpha * e^x - alpha) for x <= 0, y = gamma * x for x > 0, is applied
// to the tensor elementwise." alpha defaults to 1.67326319217681884765625,
// gamma to 1.05070102214813232421875.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
)

func init() {
	register("Selu", []int{1, 6, 22}, unary(nil, func(n *ops.Node, x scalar) (scalar, error) {
		alpha := attrFloat(n, "alpha", 1.67326319217681884765625)
		gamma := attrFloat(n, "gamma", 1.05070102214813232421875)
		if x.f > 0 {
			return floatOf(gamma * x.f), nil
		}
		return floatOf(gamma * (alpha*math.Exp(x.f) - alpha)), nil
	}))
}
