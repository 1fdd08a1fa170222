// BitShift, version 11. ONNX Operators.md:
//
// "Bitwise shift operator performs element-wise operation. For each input
// element, if the attribute "direction" is "RIGHT", this operator moves its
// binary representation toward the right side so that the input value is
// effectively decreased. If the attribute "direction" is "LEFT", bits of
// binary representation moves toward the left side, which results the
// increase of its actual value."
//
// Bits shifted past the type's width are gone: a shift by the width or
// more gives 0.

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("BitShift", []int{11}, elementwiseOp{prepare: shiftDirection}.binary(func(c call, x, y scalar) scalar {
		if c.n.Attrs["direction"].String == "LEFT" {
			return unsignedOf(x.u << y.u) // truncated to the width when stored
		}
		return unsignedOf(x.u >> y.u)
	}))
}

// shiftDirection is the [direction] rule: the attribute is required, LEFT
// or RIGHT.
func shiftDirection(c call, _ []*tensor.Tensor) error {
	a, ok := c.n.Attrs["direction"]
	if !ok || a.Type != ops.AttrString {
		return c.op.errorf("direction", "attribute direction (a string) is required")
	}
	if a.String != "LEFT" && a.String != "RIGHT" {
		return c.op.errorf("direction", "direction is %q; it is LEFT or RIGHT", a.String)
	}
	return nil
}
