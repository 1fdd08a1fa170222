package reference

// StringConcat (version 20), after the ONNX specification:
// "StringConcat concatenates string tensors elementwise (with NumPy-style
// broadcasting support)". Each output element joins the elements of X and
// Y at its multi-index, read modulo 1 on the dims they broadcast.

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("StringConcat", []int{20}, stringConcat) }

func stringConcat(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "X")
	if err != nil {
		return nil, err
	}
	y, err := requiredInput(op, in, 1, "Y")
	if err != nil {
		return nil, err
	}
	if x.DataType() != tensor.String || y.DataType() != tensor.String {
		return nil, op.errorf("type", "X and Y must hold strings")
	}
	r := max(x.Rank(), y.Rank())
	dimOf := func(t *tensor.Tensor, d int) int { // t's dim aligned at the end, 1 where t has none
		if k := d - (r - t.Rank()); k >= 0 {
			return t.Shape()[k]
		}
		return 1
	}
	shape := make([]int, r)
	for d := range r {
		a, b := dimOf(x, d), dimOf(y, d)
		switch {
		case a == b || b == 1:
			shape[d] = a
		case a == 1:
			shape[d] = b
		default:
			return nil, op.errorf("broadcast", "shapes %v and %v do not broadcast", x.Shape(), y.Shape())
		}
	}
	z, err := newTensor(opt, op, tensor.String, shape)
	if err != nil {
		return nil, err
	}
	at := func(t *tensor.Tensor, pos []int) int {
		own := make([]int, t.Rank())
		for k := range own {
			own[k] = pos[k+r-t.Rank()] % t.Shape()[k]
		}
		return ravel(own, stridesOf(t.Shape()))
	}
	for o := range z.Len() {
		pos := unravel(o, shape)
		z.Strings()[o] = x.Strings()[at(x, pos)] + y.Strings()[at(y, pos)]
	}
	return values(z), nil
}
