// IsInf, versions 10, 20. ONNX Operators.md:
//
// "Map infinity to true and other values to false."
//
// Attributes detect_negative and detect_positive (default 1): "Set to 0 if
// mapping negative infinity to false."

package reference

import "math"

func init() {
	register("IsInf", []int{10, 20}, elementwiseOp{boolOut: true}.unary(func(c call, x scalar) scalar {
		pos, _ := c.n.Int("detect_positive", 1)
		neg, _ := c.n.Int("detect_negative", 1)
		return boolOf(pos != 0 && math.IsInf(x.f, 1) || neg != 0 && math.IsInf(x.f, -1))
	}))
}
