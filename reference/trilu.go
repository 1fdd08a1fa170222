package reference

// Trilu (version 14), after the ONNX specification:
//
//	"Given a 2-D matrix or batches of 2-D matrices, returns the upper or
//	lower triangular part of the tensor(s). The attribute "upper" determines
//	whether the upper or lower part is retained. If set to true, the upper
//	triangular matrix is retained. Lower triangular matrix is retained
//	otherwise. Default value for the "upper" attribute is true. Trilu takes
//	one input tensor of shape [*, N, M], where * is zero or more batch
//	dimensions. The upper triangular part consists of the elements on and
//	above the given diagonal (k). The lower triangular part consists of
//	elements on and below the diagonal. All other elements in the matrix
//	are set to zero."

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("Trilu", []int{14}, trilu) }

func trilu(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "input")
	if err != nil {
		return nil, err
	}
	kt, err := optionalInput(op, in, 1)
	if err != nil {
		return nil, err
	}
	k := int64(0)
	if kt != nil {
		if kt.DataType() != tensor.Int64 || kt.Len() != 1 || kt.Rank() > 1 {
			return nil, op.errorf("k", "k must be an int64 scalar")
		}
		k = exactValue(kt, 0).i
	}
	upper, err := n.Int("upper", 1)
	if err != nil {
		return nil, err
	}
	r := x.Rank()
	if r < 2 {
		return nil, op.errorf("rank", "input must have rank >= 2")
	}
	y, err := newTensor(opt, op, x.DataType(), x.Shape())
	if err != nil {
		return nil, err
	}
	for o := range y.Len() {
		pos := unravel(o, y.Shape())
		i, j := int64(pos[r-2]), int64(pos[r-1])
		if (upper != 0 && j-i >= k) || (upper == 0 && j-i <= k) {
			copyElement(y, o, x, o)
		}
	}
	return values(y), nil
}
