// Cosh, versions 9, 22. ONNX Operators.md:
//
// "Calculates the hyperbolic cosine of the given input tensor element-
// wise."
//
// float, float16 and bfloat16 go through cosh32 (float32math.go), the
// float32 algorithm the fast engine computes; double is math.Cosh.

package reference

import "math"

func init() {
	register("Cosh", []int{9, 22}, float32Function(cosh32, math.Cosh))
}
