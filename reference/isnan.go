// IsNaN, versions 9, 13, 20. ONNX Operators.md:
//
// "Returns which elements of the input are NaN."

package reference

import (
	"math"
)

func init() {
	register("IsNaN", []int{9, 13, 20}, elementwiseOp{boolOut: true}.unary(func(_ call, x scalar) scalar {
		return boolOf(math.IsNaN(x.f))
	}))
}
