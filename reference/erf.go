// Erf, versions 9, 13. ONNX Operators.md:
//
// "Computes the error function of the given input tensor element-wise."
//
// An integer input (version 9) gives erf(x) stored in the integer type:
// truncated toward zero.

package reference

import "math"

func init() {
	register("Erf", []int{9, 13}, unaryKernel(func(_ call, x scalar) scalar {
		return floatOf(math.Erf(realOf(x)))
	}))
}
