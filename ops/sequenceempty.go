// SequenceEmpty creates an empty sequence of element type dtype (float
// when absent).
//
// Versions: 11. Rules: [dtype] a tensor type a sequence may hold.

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("SequenceEmpty", []int{11}, [2]int{0, 0}, [2]int{1, 1}, sequenceEmptyNode)
	declareAttrs("SequenceEmpty", AttrSpec{Name: "dtype", Type: AttrInt})
}

func sequenceEmptyNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	dt, err := n.Int("dtype", int64(tensor.Float))
	if err != nil {
		return nil, err
	}
	if !tensor.DataType(dt).Valid() {
		return nil, n.op().errorf("dtype", "dtype %d is not an ONNX type", dt)
	}
	return []tensor.Value{&tensor.Sequence{ElemType: tensor.DataType(dt), Items: []*tensor.Tensor{}}}, nil
}
