// Atanh, versions 9, 22. ONNX Operators.md:
//
// "Calculates the hyperbolic arctangent of the given input tensor element-
// wise."

package reference

import "math"

func init() {
	register("Atanh", []int{9, 22}, floatFunction(math.Atanh))
}
