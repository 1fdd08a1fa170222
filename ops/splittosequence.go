// SplitToSequence splits a tensor along axis into a sequence: into pieces
// of length 1 when split is absent (the axis then removed when keepdims is
// 0), into pieces of length split (the last one shorter) when split is a
// scalar, or into pieces of the lengths a 1-D split lists.
//
// Versions: 11. Rules: those of Split ([axis], [split]: the lengths are
// non-negative and add up to the axis's dim), and [split] a scalar split is
// positive and split is int32 or int64 of rank 0 or 1; [size] the pieces
// fit the size limit.

package ops

import (
	"fmt"

	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("SplitToSequence", []int{11}, [2]int{1, 2}, [2]int{1, 1}, splitToSequenceNode)
	declareAttrs("SplitToSequence", AttrSpec{Name: "axis", Type: AttrInt}, AttrSpec{Name: "keepdims", Type: AttrInt})
}

func splitToSequenceNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	x, err := n.requiredInput(in, 0, "input")
	if err != nil {
		return nil, err
	}
	st, err := n.tensorInput(in, 1)
	if err != nil {
		return nil, err
	}
	axis, err := n.intAttr("axis", 0, "axis")
	if err != nil {
		return nil, err
	}
	keepdims, err := n.Int("keepdims", 1)
	if err != nil {
		return nil, err
	}
	k, ok := normalizeAxis(int64(axis), x.Rank())
	if !ok {
		return nil, op.errorf("axis", "axis %d is outside [%d, %d] for an input of rank %d", axis, -x.Rank(), x.Rank()-1, x.Rank())
	}
	d := x.Shape()[k]
	var sizes []int
	switch {
	case st == nil:
		if err := opt.orDefault().checkPieces(op, int64(d)); err != nil {
			return nil, err
		}
		sizes = make([]int, d)
		for i := range sizes {
			sizes[i] = 1
		}
	case (st.DataType() != tensor.Int32 && st.DataType() != tensor.Int64) || st.Rank() > 1:
		return nil, op.errorf("split", "split must be an int32 or int64 scalar or 1-D tensor, got %s", st.Describe())
	case st.Rank() == 0:
		v, _ := int64sOf(st)
		if v[0] <= 0 {
			return nil, op.errorf("split", "a scalar split must be positive, got %d", v[0])
		}
		if err := opt.orDefault().checkPieces(op, (int64(d)+v[0]-1)/v[0]); err != nil {
			return nil, err
		}
		for left := d; left > 0; left -= int(min(v[0], int64(left))) {
			sizes = append(sizes, int(min(v[0], int64(left))))
		}
		if sizes == nil {
			sizes = []int{}
		}
	default:
		v, _ := int64sOf(st)
		if sizes, err = toInts(v); err != nil {
			return nil, op.errorf("split", "split: %v", err)
		}
	}
	parts, err := split(opt, op, x, splitParams{axis: k, split: sizes})
	if err != nil {
		return nil, err
	}
	if st == nil && keepdims == 0 {
		shape := append(append([]int{}, x.Shape()[:k]...), x.Shape()[k+1:]...)
		for i, p := range parts {
			if parts[i], err = p.View(shape...); err != nil {
				return nil, op.wrap("split", err, "piece %d", i)
			}
		}
	}
	return []tensor.Value{&tensor.Sequence{ElemType: x.DataType(), Items: parts}}, nil
}

// checkPieces refuses a split into more pieces than the size limit allows,
// counting each, even empty, as a 64-byte tensor header (Split's rule).
func (o *Options) checkPieces(op opRef, pieces int64) error {
	if pieces > o.maxBytes()/64 {
		return &Error{Op: op.name, Version: op.version, Rule: "size",
			Msg: fmt.Sprintf("%d pieces are more than the size limit allows", pieces), Err: ErrLimit}
	}
	return nil
}
