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

import "fmt"

func init() {
	register("BitShift", []int{11}, binary(0, false, func(c call, x, y scalar) (scalar, error) {
		switch dir, _ := c.n.Str("direction", ""); dir {
		case "LEFT":
			return unsignedOf(x.u << y.u), nil // truncated to the width when stored
		case "RIGHT":
			return unsignedOf(x.u >> y.u), nil
		default:
			return x, fmt.Errorf("direction %q is not LEFT or RIGHT", dir)
		}
	}))
}
