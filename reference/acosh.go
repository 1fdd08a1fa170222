// Acosh, versions 9, 22. ONNX Operators.md:
//
// "Calculates the hyperbolic arccosine of the given input tensor element-
// wise."
//
// float, float16 and bfloat16 go through acosh32 (float32math.go), the
// float32 algorithm the fast engine computes; double is math.Acosh.

package reference

import "math"

func init() {
	register("Acosh", []int{9, 22}, float32Function(acosh32, math.Acosh))
}
