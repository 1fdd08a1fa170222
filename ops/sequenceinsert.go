// SequenceInsert returns a sequence with a tensor inserted at position (at
// the end when absent; negative counts from the end). The input sequence
// is left as it is; the new one shares its tensors.
//
// Versions: 11. Rules: [input] a sequence and a tensor; [type] the tensor
// has the sequence's element type; [position] a scalar in [-n, n].

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("SequenceInsert", []int{11}, [2]int{2, 3}, [2]int{1, 1}, sequenceInsertNode)
	declareAttrs("SequenceInsert")
}

func sequenceInsertNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	s, err := n.sequenceInput(in, 0, "input_sequence")
	if err != nil {
		return nil, err
	}
	t, err := n.requiredInput(in, 1, "tensor")
	if err != nil {
		return nil, err
	}
	if t.DataType() != s.ElemType {
		return nil, n.op().errorf("type", "tensor is %v but the sequence holds %v", t.DataType(), s.ElemType)
	}
	p := len(s.Items)
	pt, err := n.tensorInput(in, 2)
	if err != nil {
		return nil, err
	}
	if pt != nil {
		if p, err = sequencePosition(n.op(), pt, len(s.Items), true); err != nil {
			return nil, err
		}
	}
	items := make([]*tensor.Tensor, 0, len(s.Items)+1)
	items = append(append(append(items, s.Items[:p]...), t), s.Items[p:]...)
	return []tensor.Value{&tensor.Sequence{ElemType: s.ElemType, Items: items}}, nil
}
