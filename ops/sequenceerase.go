// SequenceErase returns a sequence without the tensor at position (the
// last when absent; negative counts from the end). The input sequence is
// left as it is.
//
// Versions: 11. Rules: [input] a sequence; [position] a scalar in [-n,
// n-1] (so an empty sequence has nothing to erase).

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("SequenceErase", []int{11}, [2]int{1, 2}, [2]int{1, 1}, sequenceEraseNode)
	declareAttrs("SequenceErase")
}

func sequenceEraseNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	s, err := n.sequenceInput(in, 0, "input_sequence")
	if err != nil {
		return nil, err
	}
	pt, err := n.tensorInput(in, 1)
	if err != nil {
		return nil, err
	}
	if pt == nil {
		pt = tensor.Scalar(int64(-1))
	}
	p, err := sequencePosition(n.op(), pt, len(s.Items), false)
	if err != nil {
		return nil, err
	}
	items := make([]*tensor.Tensor, 0, len(s.Items)-1)
	items = append(append(items, s.Items[:p]...), s.Items[p+1:]...)
	return []tensor.Value{&tensor.Sequence{ElemType: s.ElemType, Items: items}}, nil
}
