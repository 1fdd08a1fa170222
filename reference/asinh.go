// Asinh, versions 9, 22. ONNX Operators.md:
//
// "Calculates the hyperbolic arcsine of the given input tensor element-
// wise."

package reference

import "math"

func init() {
	register("Asinh", []int{9, 22}, floatFunction(math.Asinh))
}
