// Acosh, versions 9, 22. ONNX Operators.md:
//
// "Calculates the hyperbolic arccosine of the given input tensor element-
// wise."

package reference

import "math"

func init() {
	register("Acosh", []int{9, 22}, floatFunction(math.Acosh))
}
