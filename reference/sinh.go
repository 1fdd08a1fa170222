// Sinh, versions 9, 22. ONNX Operators.md:
//
// "Calculates the hyperbolic sine of the given input tensor element-wise."
//
// float, float16 and bfloat16 go through sinh32 (float32math.go), the
// float32 algorithm the fast engine computes; double is math.Sinh.

package reference

import "math"

func init() {
	register("Sinh", []int{9, 22}, float32Function(sinh32, math.Sinh))
}
