// Asin, versions 7, 22. ONNX Operators.md:
//
// "Calculates the arcsine (inverse of sine) of the given input tensor,
// element-wise."
//
// float, float16 and bfloat16 go through asin32 (float32math.go), the
// float32 algorithm the fast engine computes; double is math.Asin.

package reference

import "math"

func init() {
	register("Asin", []int{7, 22}, float32Function(asin32, math.Asin))
}
