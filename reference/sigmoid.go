// Sigmoid, versions 1, 6, 13. ONNX Operators.md:
//
// "Sigmoid takes one input data (Tensor) and produces one output data
// (Tensor) where the sigmoid function, y = 1 / (1 + exp(-x)), is applied
// to the tensor elementwise."
//
// float, float16 and bfloat16 by the float32 algorithm sigmoid32
// (float32math.go), double in float64.

package reference

import "math"

func init() {
	register("Sigmoid", []int{1, 6, 13}, float32Function(sigmoid32, func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }))
}
