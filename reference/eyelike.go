package reference

// EyeLike (versions 9, 22), after the ONNX specification:
//
//	"Generate a 2D tensor (matrix) with ones on the diagonal and zeros
//	everywhere else. Only 2D tensors are supported, i.e. input T1 must be of
//	rank 2. The shape of the output tensor is the same as the input tensor.
//	The data type can be specified by the 'dtype' argument. If 'dtype' is
//	not specified, then the type of input tensor is used. By default, the
//	main diagonal is populated with ones, but attribute 'k' can be used to
//	populate upper or lower diagonals."

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("EyeLike", []int{9, 22}, eyeLike) }

func eyeLikeAllows(dt tensor.DataType, version int) bool {
	switch dt {
	case tensor.Float16, tensor.Float, tensor.Double, tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64,
		tensor.Uint8, tensor.Uint16, tensor.Uint32, tensor.Uint64, tensor.Bool:
		return true
	}
	return dt == tensor.BFloat16 && version >= 22
}

func eyeLike(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "input")
	if err != nil {
		return nil, err
	}
	dt := x.DataType()
	if a, ok := n.Attrs["dtype"]; ok {
		if a.Type != ops.AttrInt {
			return nil, op.errorf("attribute", "attribute dtype is of type %v, expected %v", a.Type, ops.AttrInt)
		}
		dt = tensor.DataType(a.Int)
	}
	k, err := intAttr(n, "k", 0, "k")
	if err != nil {
		return nil, err
	}
	if !eyeLikeAllows(x.DataType(), n.Version) || !eyeLikeAllows(dt, n.Version) {
		return nil, op.errorf("dtype", "types %v and %v", x.DataType(), dt)
	}
	if x.Rank() != 2 {
		return nil, op.errorf("rank", "input must be 2-D")
	}
	y, err := newTensor(opt, op, dt, x.Shape())
	if err != nil {
		return nil, err
	}
	for o := range y.Len() {
		pos := unravel(o, y.Shape())
		if pos[1]-pos[0] == k {
			storeValue(y, y, o, number{kind: 'i', i: 1}, castAttrs{saturate: true, roundMode: "up"})
		}
	}
	return values(y), nil
}
