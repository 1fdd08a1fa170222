// SequenceLength returns the number of tensors of a sequence as an int64
// scalar.
//
// Versions: 11. Rules: [input] a sequence.

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("SequenceLength", []int{11}, [2]int{1, 1}, [2]int{1, 1}, sequenceLengthNode)
	declareAttrs("SequenceLength")
}

func sequenceLengthNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	s, err := n.sequenceInput(in, 0, "input_sequence")
	if err != nil {
		return nil, err
	}
	return values(tensor.Scalar(int64(len(s.Items)))), nil
}
