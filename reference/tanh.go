// Tanh, versions 1, 6, 13. ONNX Operators.md:
//
// "Calculates the hyperbolic tangent of the given input tensor element-
// wise."
//
// float, float16 and bfloat16 by the float32 algorithm tanh32
// (float32math.go), double by math.Tanh.

package reference

import "math"

func init() {
	register("Tanh", []int{1, 6, 13}, float32Function(tanh32, math.Tanh))
}
