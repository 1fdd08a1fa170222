// Size returns the number of elements of a tensor as an int64 scalar.
//
// Versions: 1, 13, 19, 21, 23, 24 and 25 differ only in the element types
// they allow. Size has no attribute and no rule to break.

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Size", []int{1, 13, 19, 21, 23, 24, 25}, [2]int{1, 1}, [2]int{1, 1}, sizeNode)
}

// Size returns the element count of data as a rank-0 int64 tensor (ONNX
// Size, version 25). Size has no attributes, so it takes no options; the
// only error is a nil or zero data.
func Size(data *tensor.Tensor, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Size", 25}
	if _, err := callOptions(op, opts); err != nil {
		return nil, err
	}
	if err := checkInput(op, "data", data); err != nil {
		return nil, err
	}
	return tensor.Scalar(int64(data.Len())), nil
}

func sizeNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	x, err := n.requiredInput(in, 0, "data")
	if err != nil {
		return nil, err
	}
	return opt.result(tensor.Scalar(int64(x.Len()))), nil
}
