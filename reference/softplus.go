// Softplus, versions 1, 22. ONNX Operators.md:
//
// "Softplus takes one input data (Tensor) and produces one output data
// (Tensor) where the softplus function, y = ln(exp(x) + 1), is applied to
// the tensor elementwise."
//
// ln(exp(x) + 1) is written max(x, 0) + ln(1 + exp(-|x|)), the same
// number without the overflow of exp for large x.

package reference

import "math"

func init() {
	register("Softplus", []int{1, 22}, float32Function(softplus32, softplus))
}

func softplus(x float64) float64 { return math.Max(x, 0) + math.Log1p(math.Exp(-math.Abs(x))) }
