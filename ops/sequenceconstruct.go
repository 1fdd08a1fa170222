// SequenceConstruct makes a sequence of its inputs, tensors of one type,
// in order. The tensors are not copied.
//
// Versions: 11. Rules: [input] one or more tensors; [type] of one type.

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("SequenceConstruct", []int{11}, [2]int{1, -1}, [2]int{1, 1}, sequenceConstructNode)
	declareAttrs("SequenceConstruct")
}

func sequenceConstructNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	if len(in) == 0 {
		return nil, n.op().errorf("input", "SequenceConstruct needs at least one input")
	}
	items := make([]*tensor.Tensor, len(in))
	for i := range in {
		t, err := n.requiredInput(in, i, "inputs")
		if err != nil {
			return nil, err
		}
		if i > 0 && t.DataType() != items[0].DataType() {
			return nil, n.op().errorf("type", "input %d is %v but input 0 is %v: a sequence holds one type", i, t.DataType(), items[0].DataType())
		}
		items[i] = t
	}
	return []tensor.Value{&tensor.Sequence{ElemType: items[0].DataType(), Items: items}}, nil
}
