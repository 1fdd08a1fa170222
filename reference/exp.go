// Exp, versions 1, 6, 13. ONNX Operators.md:
//
// "Calculates the exponential of the given input tensor, element-wise."

package reference

import "math"

func init() {
	register("Exp", []int{1, 6, 13}, float32Function(exp32, math.Exp))
}
