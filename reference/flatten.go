// Flatten (ONNX Flatten 1, 9, 11, 13, 21, 23, 24, 25): the input as a
// matrix, the dims before axis multiplied into rows and those from axis on
// into columns (an empty product is 1). 1 and 9 take axis in [0, r]; 11 on
// also a negative one; the later versions widen the element types. The
// SONNX specification (ONNX Flatten 25):
//
//	axis [C1] axis in [-r, r], r = rank(X); a negative axis means axis + r
//
// The working group's informal specification: onnx/working-groups,
// safety-related-profile/sonnx/ops/spec/informal/flatten/flatten.md.

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Flatten", []int{1, 9, 11, 13, 21, 23, 24, 25}, flatten)
}

func flatten(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "input")
	if err != nil {
		return nil, err
	}
	if err := positiveDims(opt, op, "input", x.Shape()); err != nil { // [DIMS]
		return nil, err
	}
	axis, err := intAttr(n, "axis", 1, "C1")
	if err != nil {
		return nil, err
	}
	r := x.Rank()
	lo := -r
	if op.version < 11 {
		lo = 0
	}
	// [C1]
	if axis < lo || axis > r {
		return nil, op.errorf("axis [C1]", "axis %d is outside [%d, %d] (input rank %d)", axis, lo, r, r)
	}
	if axis < 0 {
		axis += r
	}
	rows, cols := numElements(x.Shape()[:axis]), numElements(x.Shape()[axis:])
	y, err := copyAs(opt, op, x, []int{rows, cols})
	if err != nil {
		return nil, err
	}
	return values(y), nil
}
