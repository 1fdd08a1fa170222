package reference

// SequenceAt (version 11): "Outputs a tensor copy from the tensor at
// 'position' in 'input_sequence'. Accepted range for 'position' is in [-n,
// n - 1], where n is the number of tensors in 'input_sequence'. Negative
// value means counting positions from the back."

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("SequenceAt", []int{11}, sequenceAt) }

func sequenceAt(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	s, err := sequenceIn(op, in, 0, "input_sequence")
	if err != nil {
		return nil, err
	}
	pt, err := requiredInput(op, in, 1, "position")
	if err != nil {
		return nil, err
	}
	p, err := positionIn(op, pt, len(s.Items), false)
	if err != nil {
		return nil, err
	}
	t, err := copyOf(opt, op, s.Items[p])
	if err != nil {
		return nil, err
	}
	return values(t), nil
}
