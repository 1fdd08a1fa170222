// Log, versions 1, 6, 13. ONNX Operators.md:
//
// "Calculates the natural log of the given input tensor, element-wise."

package reference

import "math"

func init() {
	register("Log", []int{1, 6, 13}, float32Function(log32, math.Log))
}
