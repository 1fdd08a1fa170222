package reference

// SequenceInsert (version 11): "Outputs a tensor sequence that inserts
// 'tensor' into 'input_sequence' at 'position'. 'tensor' must have the same
// data type as 'input_sequence'. Accepted range for 'position' is in [-n,
// n], where n is the number of tensors in 'input_sequence'. Negative value
// means counting positions from the back. 'position' is optional, by
// default it inserts 'tensor' to the back of 'input_sequence'."

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("SequenceInsert", []int{11}, sequenceInsert) }

func sequenceInsert(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	s, err := sequenceIn(op, in, 0, "input_sequence")
	if err != nil {
		return nil, err
	}
	t, err := requiredInput(op, in, 1, "tensor")
	if err != nil {
		return nil, err
	}
	if t.DataType() != s.ElemType {
		return nil, op.errorf("type", "tensor of type %v into a sequence of %v", t.DataType(), s.ElemType)
	}
	p := len(s.Items)
	pt, err := optionalInput(op, in, 2)
	if err != nil {
		return nil, err
	}
	if pt != nil {
		if p, err = positionIn(op, pt, len(s.Items), true); err != nil {
			return nil, err
		}
	}
	var items []*tensor.Tensor
	for i := 0; i <= len(s.Items); i++ {
		if i == p {
			items = append(items, t)
		}
		if i < len(s.Items) {
			items = append(items, s.Items[i])
		}
	}
	out, err := copySequence(opt, op, &tensor.Sequence{ElemType: s.ElemType, Items: items})
	if err != nil {
		return nil, err
	}
	return []tensor.Value{out}, nil
}
