// Tan, versions 7, 22. ONNX Operators.md:
//
// "Calculates the tangent of the given input tensor, element-wise."

package reference

import "math"

func init() {
	register("Tan", []int{7, 22}, floatFunction(math.Tan))
}
