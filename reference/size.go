// Size (ONNX Size 1, 13, 19, 21, 23, 24, 25): the number of elements of the
// input, an int64 scalar. The versions differ only in the types they take.

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Size", []int{1, 13, 19, 21, 23, 24, 25}, size)
}

func size(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "data")
	if err != nil {
		return nil, err
	}
	y, err := newTensor(opt, op, tensor.Int64, []int{})
	if err != nil {
		return nil, err
	}
	out, _ := tensor.Data[int64](y)
	out[0] = int64(numElements(x.Shape()))
	return values(y), nil
}
