// Erf, versions 9, 13. ONNX Operators.md:
//
// "Computes the error function of the given input tensor element-wise."
//
// An integer input (version 9) gives erf(x) stored in the integer type:
// truncated toward zero.
//
// float, float16 and bfloat16 by the float32 algorithm erf32
// (float32math.go), double and the integers by math.Erf.

package reference

import "math"

func init() {
	register("Erf", []int{9, 13}, float32Function(erf32, math.Erf))
}
