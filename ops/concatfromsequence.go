// ConcatFromSequence joins the tensors of a sequence along axis, as
// Concat; with new_axis = 1 it stacks them along a new axis inserted at
// axis (then in [-r-1, r]).
//
// Versions: 11. Rules: those of Concat (C1: one tensor at least and a
// valid axis; C2: one rank, and equal dims off the axis; C3: one type);
// [new_axis] 0 or 1; [size] the output fits the size limit.

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("ConcatFromSequence", []int{11}, [2]int{1, 1}, [2]int{1, 1}, concatFromSequenceNode)
	declareAttrs("ConcatFromSequence", AttrSpec{Name: "axis", Type: AttrInt}, AttrSpec{Name: "new_axis", Type: AttrInt})
}

func concatFromSequenceNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	s, err := n.sequenceInput(in, 0, "input_sequence")
	if err != nil {
		return nil, err
	}
	if !n.Has("axis") {
		return nil, op.errorf("C1", "attribute axis is required")
	}
	axis, err := n.intAttr("axis", 0, "C1")
	if err != nil {
		return nil, err
	}
	newAxis, err := n.Int("new_axis", 0)
	if err != nil {
		return nil, err
	}
	if newAxis != 0 && newAxis != 1 {
		return nil, op.errorf("new_axis", "new_axis must be 0 or 1, got %d", newAxis)
	}
	items := s.Items
	if newAxis == 1 && len(items) > 0 {
		r := items[0].Rank()
		k, ok := normalizeAxis(int64(axis), r+1)
		if !ok {
			return nil, op.errorf("C1", "axis %d is outside [%d, %d] for stacking tensors of rank %d", axis, -r-1, r, r)
		}
		items = make([]*tensor.Tensor, len(s.Items))
		for i, t := range s.Items {
			if t.Rank() != r {
				return nil, op.errorf("C2", "tensor %d has rank %d but tensor 0 has rank %d: all must have one rank", i, t.Rank(), r)
			}
			shape := append(append(append([]int{}, t.Shape()[:k]...), 1), t.Shape()[k:]...)
			if items[i], err = t.View(shape...); err != nil {
				return nil, op.wrap("C2", err, "tensor %d", i)
			}
		}
		axis = k
	}
	y, err := concat(opt, op, items, axis)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}
