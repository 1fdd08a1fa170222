// Cos, versions 7, 22. ONNX Operators.md:
//
// "Calculates the cosine of the given input tensor, element-wise."
//
// float, float16 and bfloat16 go through cos32 (float32math.go), the
// float32 algorithm the fast engine computes; double is math.Cos.

package reference

import "math"

func init() {
	register("Cos", []int{7, 22}, float32Function(cos32, math.Cos))
}
