// Tanh, versions 1, 6, 13. ONNX Operators.md:
//
// "Calculates the hyperbolic tangent of the given input tensor element-
// wise."

package reference

import "math"

func init() {
	register("Tanh", []int{1, 6, 13}, floatFunction(math.Tanh))
}
