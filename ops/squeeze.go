// Squeeze removes dimensions of size 1 from a tensor's shape. The data is
// not touched: the output is a view of the input.
//
// Versions: 1 and 11 take the axes as an attribute (version 1 only
// non-negative ones); 13, 21, 23, 24 and 25 take them as an optional int64
// input and differ only in the element types they allow. Without axes, every
// dim of size 1 goes, and so with an empty axes attribute (1 and 11). An
// empty axes input (13 on) removes nothing, as ONNX's shape inference and
// reference implementation read it; onnxruntime removes every dim of size 1
// then. The rules, as ONNX states them (SONNX has not specified Squeeze yet):
//
//	[axis-range]    every axis in [-r, r-1], r = rank(X)
//	[axis-repeated] no axis designated twice, after normalisation
//	[not-one]       every designated dim is of size 1

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Squeeze", []int{1, 11}, [2]int{1, 1}, [2]int{1, 1}, squeezeNode)
	register("Squeeze", []int{13, 21, 23, 24, 25}, [2]int{1, 2}, [2]int{1, 1}, squeezeNode)
}

// SqueezeOptions are the parameters of Squeeze.
type SqueezeOptions struct {
	// Axes are the dims to remove, each of size 1; negative values count
	// from the end. None (nil or empty, alike) removes every dim of size 1.
	Axes []int
}

// Squeeze returns a view of data without the dims o.Axes (ONNX Squeeze,
// version 25).
func Squeeze(data *tensor.Tensor, o SqueezeOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Squeeze", 25}
	if _, err := callOptions(op, opts); err != nil {
		return nil, err
	}
	axes := o.Axes
	if len(axes) == 0 {
		axes = nil // nil and empty alike, as Go readers expect
	}
	return squeeze(op, data, axes)
}

func squeezeNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	x, err := n.requiredInput(in, 0, "data")
	if err != nil {
		return nil, err
	}
	if err := opt.positiveDims(n.op(), "input data", x.Shape()); err != nil {
		return nil, err
	}
	var axes []int
	var given bool
	if n.Version < 13 {
		axes, given, err = n.intsAttr("axes", "axes")
	} else {
		axes, given, err = n.int64ListInput(opt, in, 1, "axes", "axes", false)
	}
	if err != nil {
		return nil, err
	}
	switch {
	case n.Version < 13 && len(axes) == 0:
		axes = nil // an empty attribute is no attribute, as in the ONNX reference
	case given && axes == nil:
		axes = []int{}
	}
	y, err := squeeze(n.op(), x, axes)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

func squeeze(op opRef, x *tensor.Tensor, axes []int) (*tensor.Tensor, error) {
	if err := checkInput(op, "data", x); err != nil {
		return nil, err
	}
	shape, err := squeezeShape(op, x.Shape(), axes)
	if err != nil {
		return nil, err
	}
	return x.View(shape...)
}

// squeezeShape checks the rules and returns the output shape; axes nil
// means every dim of size 1.
func squeezeShape(op opRef, in []int, axes []int) ([]int, error) {
	r := len(in)
	removed := make([]bool, r)
	if axes == nil {
		for k, d := range in {
			removed[k] = d == 1
		}
	}
	norm, err := normalizeAxes(op, axes, r, axisRules{rangeRule: "axis-range", repeatRule: "axis-repeated", rankOf: "input", nonNegative: op.version == 1})
	if err != nil {
		return nil, err
	}
	for i, k := range norm {
		if in[k] != 1 {
			return nil, op.errorf("not-one", "axis %d has size %d, not 1 (input shape %v)", axes[i], in[k], in)
		}
		removed[k] = true
	}
	out := make([]int, 0, r)
	for k, d := range in {
		if !removed[k] {
			out = append(out, d)
		}
	}
	return out, nil
}
