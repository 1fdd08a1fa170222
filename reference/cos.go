// Cos, versions 7, 22. ONNX Operators.md:
//
// "Calculates the cosine of the given input tensor, element-wise."

package reference

import "math"

func init() {
	register("Cos", []int{7, 22}, floatFunction(math.Cos))
}
