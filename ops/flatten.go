// Flatten views a tensor as a matrix: the dims before axis multiply into the
// rows, the dims from axis on into the columns (an empty product is 1, so a
// scalar flattens to [1, 1]). The data is not touched: the output is a view.
//
// Versions: 1 and 9 take axis in [0, r]; 11 also takes a negative axis,
// counted from the end; 13, 21, 23, 24 and 25 only widen the element types.
// The constraint is that of the SONNX specification (based on ONNX Flatten
// 25), which ONNX shares:
//
//	axis [C1] axis in [-r, r], r = rank(X); a negative axis means axis + r

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Flatten", []int{1, 9, 11, 13, 21, 23, 24, 25}, [2]int{1, 1}, [2]int{1, 1}, flattenNode)
}

// FlattenOptions are the parameters of Flatten.
type FlattenOptions struct {
	// Axis splits the input's dims into rows and columns; nil means 1, the
	// ONNX default (write Axis: new(2) to set it).
	Axis *int
}

// Flatten returns a 2-D view of input (ONNX Flatten, version 25).
func Flatten(input *tensor.Tensor, o FlattenOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Flatten", 25}
	if _, err := callOptions(op, opts); err != nil {
		return nil, err
	}
	axis := 1
	if o.Axis != nil {
		axis = *o.Axis
	}
	return flatten(op, input, axis)
}

func flattenNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	x, err := n.requiredInput(in, 0, "input")
	if err != nil {
		return nil, err
	}
	if err := opt.positiveDims(n.op(), "input", x.Shape()); err != nil {
		return nil, err
	}
	axis, err := n.intAttr("axis", 1, "C1")
	if err != nil {
		return nil, err
	}
	y, err := flatten(n.op(), x, axis)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

func flatten(op opRef, x *tensor.Tensor, axis int) (*tensor.Tensor, error) {
	if err := checkInput(op, "input", x); err != nil {
		return nil, err
	}
	shape, err := flattenShape(op, x.Shape(), axis)
	if err != nil {
		return nil, err
	}
	return x.View(shape...)
}

// flattenShape checks the constraint and returns the output shape.
func flattenShape(op opRef, in []int, axis int) ([]int, error) {
	r := len(in)
	lo := -r
	if op.version < 11 {
		lo = 0 // versions 1 and 9 take non-negative axes only
	}
	if axis < lo || axis > r {
		return nil, op.errorf("axis [C1]", "axis %d is outside [%d, %d] (input rank %d)", axis, lo, r, r)
	}
	if axis < 0 {
		axis += r
	}
	rows, err := tensor.NumElements(in[:axis])
	if err != nil {
		return nil, op.wrap("count", err, "input shape %v", in)
	}
	cols, err := tensor.NumElements(in[axis:])
	if err != nil {
		return nil, op.wrap("count", err, "input shape %v", in)
	}
	return []int{rows, cols}, nil
}
