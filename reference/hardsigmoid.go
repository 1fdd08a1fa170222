// HardSigmoid, versions 1, 6, 22. ONNX Operators.md:
//
// "HardSigmoid takes one input data (Tensor<T>) and produces one output
// data (Tensor<T>) where the HardSigmoid function, y = max(0, min(1, alpha
// * x + beta)), is applied to the tensor elementwise." alpha defaults to
// 0.2, beta to 0.5.

package reference

func init() {
	register("HardSigmoid", []int{1, 6, 22}, float32Unary(elementwiseOp{}, func(c call, x float32) float32 {
		return hardSigmoid32(x, float32(attrFloat(c.n, "alpha", 0.2)), float32(attrFloat(c.n, "beta", 0.5)))
	}, func(c call, x scalar) scalar {
		y := attrFloat(c.n, "alpha", 0.2)*x.f + attrFloat(c.n, "beta", 0.5)
		switch {
		case y < 0:
			y = 0
		case y > 1:
			y = 1
		}
		return floatOf(y)
	}))
}
