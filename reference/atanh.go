// Atanh, versions 9, 22. ONNX Operators.md:
//
// "Calculates the hyperbolic arctangent of the given input tensor element-
// wise."
//
// float, float16 and bfloat16 go through atanh32 (float32math.go), the
// float32 algorithm the fast engine computes; double is math.Atanh.

package reference

import "math"

func init() {
	register("Atanh", []int{9, 22}, float32Function(atanh32, math.Atanh))
}
