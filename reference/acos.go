// Acos, versions 7, 22. ONNX Operators.md:
//
// "Calculates the arccosine (inverse of cosine) of the given input tensor,
// element-wise."
//
// float, float16 and bfloat16 go through acos32 (float32math.go), the
// float32 algorithm the fast engine computes; double is math.Acos.

package reference

import "math"

func init() {
	register("Acos", []int{7, 22}, float32Function(acos32, math.Acos))
}
