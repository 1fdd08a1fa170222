package reference

// Compress (versions 9, 11), after the ONNX specification:
//
//	"Selects slices from an input tensor along a given axis where condition
//	evaluates to True for each axis index. In case axis is not provided,
//	input is flattened before elements are selected. Compress behaves like
//	numpy.compress"
//	"condition: Rank 1 tensor of booleans to indicate which slices or data
//	elements to be selected. Its length can be less than the input length
//	along the axis or the flattened input size if axis is not specified. In
//	such cases data slices or elements exceeding the condition length are
//	discarded."

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("Compress", []int{9, 11}, compress) }

func compress(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "input")
	if err != nil {
		return nil, err
	}
	cond, err := requiredInput(op, in, 1, "condition")
	if err != nil {
		return nil, err
	}
	if cond.DataType() != tensor.Bool || cond.Rank() != 1 {
		return nil, op.errorf("condition", "condition must be a 1-D bool tensor")
	}
	shape, axis := []int{x.Len()}, 0
	if _, ok := n.Attrs["axis"]; ok {
		a, err := n.Int("axis", 0)
		if err != nil {
			return nil, err
		}
		r := int64(x.Rank())
		if a < -r || a >= r || (a < 0 && n.Version < 11) {
			return nil, op.errorf("axis", "axis %d", a)
		}
		if a < 0 {
			a += r
		}
		shape, axis = x.Shape(), int(a)
	}
	var kept []int
	for i := range cond.Len() {
		if cond.Bytes()[i] != 0 {
			if i >= shape[axis] {
				return nil, op.errorf("condition", "condition is true at %d, past the axis", i)
			}
			kept = append(kept, i)
		}
	}
	out := append([]int{}, shape...)
	out[axis] = len(kept)
	y, err := newTensor(opt, op, x.DataType(), out)
	if err != nil {
		return nil, err
	}
	strides := stridesOf(shape)
	for o := range y.Len() {
		pos := unravel(o, out)
		pos[axis] = kept[pos[axis]]
		copyElement(y, o, x, ravel(pos, strides))
	}
	return values(y), nil
}
