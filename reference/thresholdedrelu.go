// ThresholdedRelu, versions 10, 22. ONNX Operators.md:
//
// "ThresholdedRelu takes one input data (Tensor<T>) and produces one output
// data (Tensor<T>) where the rectified linear function, y = x for x >
// alpha, y = 0 otherwise, is applied to the tensor elementwise." alpha
// defaults to 1.0.

package reference

func init() {
	register("ThresholdedRelu", []int{10, 22}, unaryKernel(func(c call, x scalar) scalar {
		if x.f > attrFloat(c.n, "alpha", 1) {
			return x
		}
		return floatOf(0)
	}))
}
