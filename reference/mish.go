// Mish, versions 18, 22. ONNX Operators.md:
//
// "Mish: A Self Regularized Non-Monotonic Neural Activation Function.
// Perform the linear unit element-wise on the input tensor X using
// formula: ``` mish(x) = x * tanh(softplus(x)) = x * tanh(ln(1 + e^{x}))
// ```"

package reference

import "math"

func init() {
	register("Mish", []int{18, 22}, float32Function(mish32, func(x float64) float64 { return x * math.Tanh(softplus(x)) }))
}
