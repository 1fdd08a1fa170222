// Sin, versions 7, 22. ONNX Operators.md:
//
// "Calculates the sine of the given input tensor, element-wise."

package reference

import "math"

func init() {
	register("Sin", []int{7, 22}, floatFunction(math.Sin))
}
