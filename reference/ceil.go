// Ceil, versions 1, 6, 13. ONNX Operators.md:
//
// "Ceil takes one input data (Tensor) and produces one output data
// (Tensor) where the ceil is, y = ceil(x), is applied to the tensor
// elementwise. If x is integral, +0, -0, NaN, or infinite, x itself is
// returned."

package reference

import "math"

func init() {
	register("Ceil", []int{1, 6, 13}, floatFunction(math.Ceil))
}
