package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

// The sequence and optional operators' shared pieces. A sequence operation
// never copies the tensors it passes on: a new sequence is a new list of
// the same tensors (values are immutable once made), so every operation is
// linear in the sequence's length at most.

// sequenceInput returns input i as a sequence.
func (n *Node) sequenceInput(in []tensor.Value, i int, name string) (*tensor.Sequence, error) {
	if i >= len(in) || in[i] == nil {
		return nil, n.op().errorf("input", "required input %s (#%d) is missing", name, i)
	}
	s, ok := in[i].(*tensor.Sequence)
	if !ok || s == nil {
		return nil, n.op().errorf("input", "input %s (#%d) is %s, expected a sequence", name, i, in[i].Describe())
	}
	return s, nil
}

// sequencePosition reads a position input (an int32 or int64 scalar) into a
// sequence of length n, counted from the end when negative; it must lie in
// [-n, n-1], or [-n, n] when end is true (an insertion may append).
func sequencePosition(op opRef, t *tensor.Tensor, n int, end bool) (int, error) {
	if (t.DataType() != tensor.Int32 && t.DataType() != tensor.Int64) || t.Len() != 1 || t.Rank() > 1 {
		return 0, op.errorf("position", "position must be an int32 or int64 scalar, got %s", t.Describe())
	}
	v, _ := int64sOf(t)
	p, hi := v[0], int64(n)-1
	if end {
		hi++
	}
	if p < -int64(n) || p > hi {
		return 0, op.errorf("position", "position %d outside [%d, %d] for a sequence of %d tensors", p, -n, hi, n)
	}
	if p < 0 {
		p += int64(n)
	}
	return int(p), nil
}
