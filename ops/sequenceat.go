// SequenceAt returns the tensor at position (an int32 or int64 scalar,
// negative counting from the end) of a sequence, not a copy.
//
// Versions: 11. Rules: [input] a sequence; [position] a scalar in [-n,
// n-1].

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("SequenceAt", []int{11}, [2]int{2, 2}, [2]int{1, 1}, sequenceAtNode)
	declareAttrs("SequenceAt")
}

func sequenceAtNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	s, err := n.sequenceInput(in, 0, "input_sequence")
	if err != nil {
		return nil, err
	}
	pt, err := n.requiredInput(in, 1, "position")
	if err != nil {
		return nil, err
	}
	p, err := sequencePosition(n.op(), pt, len(s.Items), false)
	if err != nil {
		return nil, err
	}
	return values(s.Items[p]), nil
}
