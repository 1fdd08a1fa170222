// Floor, versions 1, 6, 13. ONNX Operators.md:
//
// "Floor takes one input data (Tensor) and produces one output data
// (Tensor) where the floor is, y = floor(x), is applied to the tensor
// elementwise. If x is integral, +0, -0, NaN, or infinite, x itself is
// returned."

package reference

import "math"

func init() {
	register("Floor", []int{1, 6, 13}, floatFunction(math.Floor))
}
