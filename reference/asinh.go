// Asinh, versions 9, 22. ONNX Operators.md:
//
// "Calculates the hyperbolic arcsine of the given input tensor element-
// wise."
//
// float, float16 and bfloat16 go through asinh32 (float32math.go), the
// float32 algorithm the fast engine computes; double is math.Asinh.

package reference

import "math"

func init() {
	register("Asinh", []int{9, 22}, float32Function(asinh32, math.Asinh))
}
