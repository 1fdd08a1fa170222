package reference

// What the sequence operators of this package share: reading a sequence
// input and a position, and copying a tensor (the reference engine hands
// out fresh tensors, never the ones it was given; copySequence and
// copyOptional are in identity.go).

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// sequenceIn returns input i, which must be a sequence.
func sequenceIn(op opRef, in []tensor.Value, i int, name string) (*tensor.Sequence, error) {
	if i >= len(in) || in[i] == nil {
		return nil, op.errorf("input", "required input %s (#%d) is missing", name, i)
	}
	s, ok := in[i].(*tensor.Sequence)
	if !ok || s == nil {
		return nil, op.errorf("input", "input %s (#%d) is %s, expected a sequence", name, i, in[i].Describe())
	}
	return s, nil
}

// positionIn reads a position: "It is an error if any of the index values
// are out of bounds. It must be a scalar(tensor of empty shape)" of int32
// or int64, "Negative value means counting positions from the back.
// Accepted range in [-n, n - 1]" ([-n, n] for SequenceInsert, end true).
func positionIn(op opRef, t *tensor.Tensor, n int, end bool) (int, error) {
	if (t.DataType() != tensor.Int32 && t.DataType() != tensor.Int64) || t.Len() != 1 || t.Rank() > 1 {
		return 0, op.errorf("position", "position must be an int32 or int64 scalar")
	}
	p := exactValue(t, 0).i
	hi := int64(n) - 1
	if end {
		hi = int64(n)
	}
	if p < -int64(n) || p > hi {
		return 0, op.errorf("position", "position %d outside [%d, %d]", p, -n, hi)
	}
	if p < 0 {
		p += int64(n)
	}
	return int(p), nil
}

// copyOf returns a fresh copy of t.
func copyOf(opt *ops.Options, op opRef, t *tensor.Tensor) (*tensor.Tensor, error) {
	return copyAs(opt, op, t, t.Shape())
}
