package reference

// SequenceLength (version 11): "Produces a scalar(tensor of empty shape)
// containing the number of tensors in 'input_sequence'."

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("SequenceLength", []int{11}, sequenceLength) }

func sequenceLength(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	s, err := sequenceIn(opOf(n), in, 0, "input_sequence")
	if err != nil {
		return nil, err
	}
	return values(tensor.Scalar(int64(len(s.Items)))), nil
}
