// Tan, versions 7, 22. ONNX Operators.md:
//
// "Calculates the tangent of the given input tensor, element-wise."
//
// float, float16 and bfloat16 go through tan32 (float32math.go), the
// float32 algorithm the fast engine computes; double is math.Tan.

package reference

import "math"

func init() {
	register("Tan", []int{7, 22}, float32Function(tan32, math.Tan))
}
