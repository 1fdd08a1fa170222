// ThresholdedRelu, versions 10, 22. ONNX Operators.md:
//
// "ThresholdedRelu takes one input data (Tensor<T>) and produces one output
// data (Tensor<T>) where the rectified linear function, y = x for x >
// alpha, y = 0 otherwise, is applied to the tensor elementwise." alpha
// defaults to 1.0.

package reference

import "github.com/onnxshape/onnxshape/ops"

func init() {
	register("ThresholdedRelu", []int{10, 22}, unary(nil, func(n *ops.Node, x scalar) (scalar, error) {
		if x.f > attrFloat(n, "alpha", 1) {
			return x, nil
		}
		return floatOf(0), nil
	}))
}
