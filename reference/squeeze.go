// Squeeze (ONNX Squeeze 1, 11, 13, 21, 23, 24, 25): the input without the
// dims of size 1 the axes name, or without every dim of size 1 when no axes
// are given. 1 and 11 take axes as an attribute (1 only non-negative ones;
// an empty attribute is none); 13 on as an optional int64 input, where an
// empty list removes nothing. The rules of ONNX (no SONNX specification yet):
//
//	[axis-range]    every axis in [-r, r-1], r = rank(X)
//	[axis-repeated] no axis designated twice, after normalisation
//	[not-one]       every designated dim is of size 1

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Squeeze", []int{1, 11, 13, 21, 23, 24, 25}, squeeze)
}

func squeeze(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "data")
	if err != nil {
		return nil, err
	}
	if err := positiveDims(opt, op, "input data", x.Shape()); err != nil { // [DIMS]
		return nil, err
	}
	var axes []int
	var given bool
	if op.version < 13 {
		axes, given, err = intsAttr(n, "axes", "axes")
		given = given && len(axes) > 0
	} else {
		axes, given, err = intListInput(opt, op, in, 1, "axes", "axes", false)
	}
	if err != nil {
		return nil, err
	}
	r := x.Rank()
	removed := make([]bool, r)
	if !given {
		for k, d := range x.Shape() {
			removed[k] = d == 1
		}
	}
	norm, err := normalizeAxes(op, axes, r, op.version == 1, "axis-range", "axis-repeated", "input")
	if err != nil {
		return nil, err
	}
	for i, k := range norm {
		if x.Shape()[k] != 1 { // [not-one]
			return nil, op.errorf("not-one", "axis %d has size %d, not 1 (input shape %v)", axes[i], x.Shape()[k], x.Shape())
		}
		removed[k] = true
	}
	out := []int{}
	for k, d := range x.Shape() {
		if !removed[k] {
			out = append(out, d)
		}
	}
	y, err := copyAs(opt, op, x, out)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}
