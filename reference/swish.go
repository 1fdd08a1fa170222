// Swish, version 24. ONNX Operators.md:
//
// "Swish function takes one input data (Tensor<T>) and produces one output
// data (Tensor<T>) of the same shape, where Swish(x) = x * sigmoid(alpha *
// x)." alpha ("Coefficient to multiply with input before sigmoid")
// defaults to 1.0. Types: float16, float, bfloat16, double.

package reference

import "math"

func init() {
	register("Swish", []int{24}, float32Unary(elementwiseOp{}, func(c call, x float32) float32 {
		return swish32(x, float32(attrFloat(c.n, "alpha", 1)))
	}, func(c call, x scalar) scalar {
		return floatOf(swish(attrFloat(c.n, "alpha", 1), x.f))
	}))
}

// swish is Swish_alpha(x).
func swish(alpha, x float64) float64 { return x * (1 / (1 + math.Exp(-alpha*x))) }
