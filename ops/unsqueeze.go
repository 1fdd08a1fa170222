// Unsqueeze inserts dimensions of size 1 into a tensor's shape. The data is
// not touched: the output is a view of the input.
//
// Versions: 1 and 11 take the axes as an attribute (version 1 only
// non-negative ones); 13, 21, 23, 24 and 25 take them as an int64 input and
// differ only in the element types they allow. The constraints are those of
// the SONNX specification (based on ONNX Unsqueeze 25), which ONNX shares:
//
//	[C1] every axis in [-rY, rY-1], rY = rank(X) + len(axes)
//	[C2] no axis designated twice, after normalisation

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Unsqueeze", []int{1, 11, 13, 21, 23, 24, 25}, [2]int{1, 2}, [2]int{1, 1}, unsqueezeNode)
}

// UnsqueezeOptions are the parameters of Unsqueeze.
type UnsqueezeOptions struct {
	// Axes are the positions, in the output, of the new dimensions; negative
	// values count from the end. Their order does not matter.
	Axes []int
}

// Unsqueeze returns a view of x with a dimension of size 1 inserted at each
// of o.Axes (ONNX Unsqueeze, version 25).
func Unsqueeze(x *tensor.Tensor, o UnsqueezeOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Unsqueeze", 25}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return unsqueeze(opt, op, x, o.Axes)
}

func unsqueezeNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	x, err := n.requiredInput(in, 0, "data")
	if err != nil {
		return nil, err
	}
	var axes64 []int64
	if n.Version < 13 {
		var ok bool
		if axes64, ok, err = n.Ints("axes"); err != nil {
			return nil, err
		} else if !ok {
			return nil, op.errorf("axes", "attribute axes is required")
		}
	} else {
		a, err := n.requiredInput(in, 1, "axes")
		if err != nil {
			return nil, err
		}
		if a.Rank() > 1 || (opt.orDefault().Profile == ProfileSONNX && a.Rank() != 1) {
			return nil, op.errorf("axes", "axes must be a 1-D tensor, got shape %v", a.Shape())
		}
		if axes64, err = int64sOf(a); err != nil || a.DataType() != tensor.Int64 {
			return nil, op.errorf("axes", "axes must be int64, got %v", a.DataType())
		}
	}
	axes, err := toInts(axes64)
	if err != nil {
		return nil, op.errorf("A [C1]", "%v", err)
	}
	y, err := unsqueeze(opt, op, x, axes)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

func unsqueeze(opt *Options, op opRef, x *tensor.Tensor, axes []int) (*tensor.Tensor, error) {
	if err := checkInput(op, "data", x); err != nil {
		return nil, err
	}
	if err := opt.positiveDims(op, "input data", x.Shape()); err != nil {
		return nil, err
	}
	shape, err := unsqueezeShape(opt, op, x.Shape(), axes)
	if err != nil {
		return nil, err
	}
	return x.View(shape...)
}

// unsqueezeShape checks the constraints and returns the output shape.
func unsqueezeShape(opt *Options, op opRef, in []int, axes []int) ([]int, error) {
	if opt.orDefault().Profile == ProfileSONNX && len(axes) == 0 {
		return nil, op.errorf("axes", "the profile needs at least one axis")
	}
	rY := len(in) + len(axes)
	norm, err := normalizeAxes(op, axes, rY, axisRules{rangeRule: "A [C1]", repeatRule: "A [C2]", rankOf: "output", nonNegative: op.version == 1})
	if err != nil {
		return nil, err
	}
	inserted := make([]bool, rY)
	for _, k := range norm {
		inserted[k] = true
	}
	out := make([]int, rY)
	j := 0
	for k := range out {
		if inserted[k] {
			out[k] = 1
		} else {
			out[k] = in[j]
			j++
		}
	}
	return out, nil
}
