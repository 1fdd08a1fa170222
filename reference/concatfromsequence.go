package reference

// ConcatFromSequence (version 11), after the ONNX specification:
//
//	"Concatenate a sequence of tensors into a single tensor. All input
//	tensors must have the same shape, except for the dimension size of the
//	axis to concatenate on. By default 'new_axis' is 0, the behavior is
//	similar to numpy.concatenate. When 'new_axis' is 1, the behavior is
//	similar to numpy.stack."
//	"axis: Which axis to concat on. Accepted range in [-r, r - 1], where r
//	is the rank of input tensors. When new_axis is 1, accepted range is
//	[-r - 1, r]."
//
// The rule names are Concat's (C1 the inputs and the axis, C2 ranks and
// dims, C3 one type), checked in Concat's order.

import (
	"fmt"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("ConcatFromSequence", []int{11}, concatFromSequence) }

func concatFromSequence(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	s, err := sequenceIn(op, in, 0, "input_sequence")
	if err != nil {
		return nil, err
	}
	if _, ok := n.Attrs["axis"]; !ok {
		return nil, op.errorf("C1", "attribute axis is required")
	}
	axis, err := intAttr(n, "axis", 0, "C1")
	if err != nil {
		return nil, err
	}
	newAxis, err := n.Int("new_axis", 0)
	if err != nil {
		return nil, err
	}
	if newAxis != 0 && newAxis != 1 {
		return nil, op.errorf("new_axis", "new_axis %d", newAxis)
	}
	items := s.Items
	if len(items) == 0 {
		return nil, op.errorf("inputs [C1]", "an empty sequence has nothing to join")
	}
	r := items[0].Rank()
	shapes := make([][]int, len(items))
	for i, t := range items {
		shapes[i] = t.Shape()
	}
	if newAxis == 1 { // stack: each tensor gains a dim of 1 at axis
		if axis < -r-1 || axis > r {
			return nil, op.errorf("C1", "axis %d", axis)
		}
		if axis < 0 {
			axis += r + 1
		}
		for i, t := range items {
			if t.Rank() != r {
				return nil, op.errorf("C2", "tensor %d has rank %d, not %d", i, t.Rank(), r)
			}
			shapes[i] = append(append(append([]int{}, t.Shape()[:axis]...), 1), t.Shape()[axis:]...)
		}
		r++
	}
	// From here on the tensors are joined as Concat joins its inputs, under
	// Concat's rules and ids.
	for i, sh := range shapes { // [DIMS]
		if err := positiveDims(opt, op, fmt.Sprintf("inputs[%d]", i), sh); err != nil {
			return nil, err
		}
	}
	axisOK := axis >= -r && axis < r
	k := axis
	if k < 0 {
		k += r
	}
	for i, sh := range shapes {
		if len(sh) != r {
			return nil, op.errorf("inputs [C2]", "tensor %d has rank %d, not %d", i, len(sh), r)
		}
		for d := range sh {
			if axisOK && d != k && sh[d] != shapes[0][d] {
				return nil, op.errorf("inputs [C2]", "tensor %d differs off the axis", i)
			}
		}
	}
	for i, t := range items {
		if t.DataType() != items[0].DataType() {
			return nil, op.errorf("inputs [C3]", "tensor %d has another type", i)
		}
	}
	if r == 0 {
		return nil, op.errorf("axis [C1]", "scalars have no axis to join along")
	}
	if !axisOK {
		return nil, op.errorf("axis [C1]", "axis %d", axis)
	}
	shape := append([]int{}, shapes[0]...)
	shape[k] = 0
	for _, sh := range shapes {
		shape[k] += sh[k]
	}
	y, err := newTensor(opt, op, items[0].DataType(), shape)
	if err != nil {
		return nil, err
	}
	// element o of the output comes from the tensor whose range on axis k
	// holds o's coordinate there
	for o := range y.Len() {
		pos := unravel(o, shape)
		for i, sh := range shapes {
			if pos[k] < sh[k] {
				copyElement(y, o, items[i], ravel(pos, stridesOf(sh)))
				break
			}
			pos[k] -= sh[k]
		}
	}
	return values(y), nil
}
