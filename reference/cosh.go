// Cosh, versions 9, 22. ONNX Operators.md:
//
// "Calculates the hyperbolic cosine of the given input tensor element-
// wise."

package reference

import "math"

func init() {
	register("Cosh", []int{9, 22}, floatFunction(math.Cosh))
}
