package reference

// SequenceErase (version 11): "Outputs a tensor sequence that removes the
// tensor at 'position' from 'input_sequence'. Accepted range for 'position'
// is in [-n, n - 1], where n is the number of tensors in 'input_sequence'.
// Negative value means counting positions from the back. 'position' is
// optional, by default it erases the last tensor from 'input_sequence'."

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("SequenceErase", []int{11}, sequenceErase) }

func sequenceErase(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	s, err := sequenceIn(op, in, 0, "input_sequence")
	if err != nil {
		return nil, err
	}
	pt, err := optionalInput(op, in, 1)
	if err != nil {
		return nil, err
	}
	if pt == nil {
		pt = tensor.Scalar(int64(-1))
	}
	p, err := positionIn(op, pt, len(s.Items), false)
	if err != nil {
		return nil, err
	}
	var items []*tensor.Tensor
	for i, t := range s.Items {
		if i != p {
			items = append(items, t)
		}
	}
	out, err := copySequence(opt, op, &tensor.Sequence{ElemType: s.ElemType, Items: items})
	if err != nil {
		return nil, err
	}
	return []tensor.Value{out}, nil
}
