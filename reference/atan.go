// Atan, versions 7, 22. ONNX Operators.md:
//
// "Calculates the arctangent (inverse of tangent) of the given input
// tensor, element-wise."

package reference

import "math"

func init() {
	register("Atan", []int{7, 22}, floatFunction(math.Atan))
}
