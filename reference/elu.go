// Elu, versions 1, 6, 22. ONNX Operators.md:
//
// "Elu takes one input data (Tensor<T>) and produces one output data
// (Tensor<T>) where the function f(x) = alpha * (exp(x) - 1.) for x < 0,
// f(x) = x for x >= 0., is applied to the tensor elementwise." alpha
// defaults to 1.0. exp(x) - 1 is computed as expm1(x), which keeps its
// digits near 0.

package reference

import "math"

func init() {
	register("Elu", []int{1, 6, 22}, float32Unary(elementwiseOp{}, func(c call, x float32) float32 {
		return elu32(x, float32(attrFloat(c.n, "alpha", 1)))
	}, func(c call, x scalar) scalar {
		if x.f < 0 {
			return floatOf(attrFloat(c.n, "alpha", 1) * math.Expm1(x.f))
		}
		return x
	}))
}
