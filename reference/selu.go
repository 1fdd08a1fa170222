// Selu, versions 1, 6, 22. ONNX Operators.md:
//
// "Selu takes one input data (Tensor<T>) and produces one output data
// (Tensor<T>) where the scaled exponential linear unit function, y = gamma
// * (alpha * e^x - alpha) for x <= 0, y = gamma * x for x > 0, is applied
// to the tensor elementwise." alpha defaults to 1.67326319217681884765625,
// gamma to 1.05070102214813232421875.

package reference

import "math"

func init() {
	register("Selu", []int{1, 6, 22}, float32Unary(elementwiseOp{}, func(c call, x float32) float32 {
		return selu32(x, float32(attrFloat(c.n, "alpha", 1.67326319217681884765625)), float32(attrFloat(c.n, "gamma", 1.05070102214813232421875)))
	}, func(c call, x scalar) scalar {
		alpha := attrFloat(c.n, "alpha", 1.67326319217681884765625)
		gamma := attrFloat(c.n, "gamma", 1.05070102214813232421875)
		if x.f > 0 {
			return floatOf(gamma * x.f)
		}
		return floatOf(gamma * (alpha*math.Exp(x.f) - alpha))
	}))
}
