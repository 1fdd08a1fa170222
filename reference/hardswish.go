// HardSwish, versions 14, 22. ONNX Operators.md:
//
// "HardSwish takes one input data (Tensor) and produces one output data
// (Tensor) where the HardSwish function, y = x * max(0, min(1, alpha * x +
// beta)) = x * HardSigmoid(x), where alpha = 1/6 and beta = 0.5, is
// applied to the tensor elementwise."
//
// The spec: y = x * max(0, min(1, alpha*x + beta)), alpha = 1/6, beta = 0.5;
// x/6 is alpha*x rounded once.

package reference

import "math"

func init() {
	register("HardSwish", []int{14, 22}, float32Function(hardSwish32, func(x float64) float64 { return x * math.Max(0, math.Min(1, x/6+0.5)) }))
}
