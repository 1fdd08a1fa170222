// HardSigmoid, versions 1, 6, 22. ONNX Operators.md:
//
// "HardSigmoid takes one input data (Tensor<T>) and produces one output
// data (Tensor<T>) where the HardSigmoid function, y = max(0, min(1, alpha
// * x + beta)), is applied to the tensor elementwise." alpha defaults to
// 0.2, beta to 0.5.

package reference

import "github.com/onnxshape/onnxshape/ops"

func init() {
	register("HardSigmoid", []int{1, 6, 22}, unary(nil, func(n *ops.Node, x scalar) (scalar, error) {
		y := attrFloat(n, "alpha", 0.2)*x.f + attrFloat(n, "beta", 0.5)
		switch {
		case y < 0:
			y = 0
		case y > 1:
			y = 1
		}
		return floatOf(y), nil
	}))
}
