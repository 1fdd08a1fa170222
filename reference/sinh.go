// Sinh, versions 9, 22. ONNX Operators.md:
//
// "Calculates the hyperbolic sine of the given input tensor element-wise."

package reference

import "math"

func init() {
	register("Sinh", []int{9, 22}, floatFunction(math.Sinh))
}
