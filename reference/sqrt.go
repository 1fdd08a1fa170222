// Sqrt, versions 1, 6, 13. ONNX Operators.md:
//
// "Square root takes one input data (Tensor) and produces one output data
// (Tensor) where the square root is, y = x^0.5, is applied to the tensor
// elementwise. If x is negative, then it will return NaN."

package reference

import "math"

func init() {
	register("Sqrt", []int{1, 6, 13}, floatFunction(math.Sqrt))
}
