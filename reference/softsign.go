// Softsign, versions 1, 22. ONNX Operators.md:
//
// "Calculates the softsign (x/(1+|x|)) of the given input tensor element-
// wise."

package reference

import "math"

func init() {
	register("Softsign", []int{1, 22}, float32Function(softsign32, func(x float64) float64 { return x / (1 + math.Abs(x)) }))
}
