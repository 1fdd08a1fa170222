// Asin, versions 7, 22. ONNX Operators.md:
//
// "Calculates the arcsine (inverse of sine) of the given input tensor,
// element-wise."

package reference

import "math"

func init() {
	register("Asin", []int{7, 22}, floatFunction(math.Asin))
}
