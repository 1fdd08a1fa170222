// Acos, versions 7, 22. ONNX Operators.md:
//
// "Calculates the arccosine (inverse of cosine) of the given input tensor,
// element-wise."

package reference

import "math"

func init() {
	register("Acos", []int{7, 22}, floatFunction(math.Acos))
}
