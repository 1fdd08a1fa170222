package reference

// SequenceConstruct (version 11): "Construct a tensor sequence containing
// 'inputs' tensors. All tensors in 'inputs' must have the same data type."

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("SequenceConstruct", []int{11}, sequenceConstruct) }

func sequenceConstruct(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	if len(in) == 0 {
		return nil, op.errorf("input", "no inputs")
	}
	items := make([]*tensor.Tensor, len(in))
	for i := range in {
		t, err := requiredInput(op, in, i, "inputs")
		if err != nil {
			return nil, err
		}
		if t.DataType() != exactFirst(items, t).DataType() {
			return nil, op.errorf("type", "input %d has another type", i)
		}
		items[i] = t
	}
	s, err := copySequence(opt, op, &tensor.Sequence{ElemType: items[0].DataType(), Items: items})
	if err != nil {
		return nil, err
	}
	return []tensor.Value{s}, nil
}

// exactFirst is the first of the tensors, or t when there is none yet.
func exactFirst(items []*tensor.Tensor, t *tensor.Tensor) *tensor.Tensor {
	if items[0] != nil {
		return items[0]
	}
	return t
}
