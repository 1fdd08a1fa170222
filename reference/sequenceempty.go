package reference

// SequenceEmpty (version 11): "Construct an empty tensor sequence, with
// given data type." "dtype: (Optional) The data type of the tensors in the
// output sequence. The default type is 'float'."

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("SequenceEmpty", []int{11}, sequenceEmpty) }

func sequenceEmpty(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	dt, err := n.Int("dtype", int64(tensor.Float))
	if err != nil {
		return nil, err
	}
	if !tensor.DataType(dt).Valid() {
		return nil, opOf(n).errorf("dtype", "dtype %d", dt)
	}
	return []tensor.Value{&tensor.Sequence{ElemType: tensor.DataType(dt), Items: []*tensor.Tensor{}}}, nil
}
