// LeakyRelu, versions 1, 6, 16. ONNX Operators.md:
//
// "LeakyRelu takes input data (Tensor<T>) and an argument alpha, and
// produces one output data (Tensor<T>) where the function f(x) = alpha * x
// for x < 0, f(x) = x for x >= 0, is applied to the data tensor
// elementwise." alpha: "Coefficient of leakage." (default 0.01)

package reference

import "github.com/onnxshape/onnxshape/ops"

func init() {
	register("LeakyRelu", []int{1, 6, 16}, unary(nil, func(n *ops.Node, x scalar) (scalar, error) {
		if x.f < 0 {
			return floatOf(attrFloat(n, "alpha", 0.01) * x.f), nil
		}
		return x, nil
	}))
}
