// Atan, versions 7, 22. ONNX Operators.md:
//
// "Calculates the arctangent (inverse of tangent) of the given input
// tensor, element-wise."
//
// float, float16 and bfloat16 go through atan32 (float32math.go), the
// float32 algorithm the fast engine computes; double is math.Atan.

package reference

import "math"

func init() {
	register("Atan", []int{7, 22}, float32Function(atan32, math.Atan))
}
