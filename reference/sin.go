// Sin, versions 7, 22. ONNX Operators.md:
//
// "Calculates the sine of the given input tensor, element-wise."
//
// float, float16 and bfloat16 go through sin32 (float32math.go), the
// float32 algorithm the fast engine computes; double is math.Sin.

package reference

import "math"

func init() {
	register("Sin", []int{7, 22}, float32Function(sin32, math.Sin))
}
