// CenterCropPad crops or pads a tensor, on the axes listed, to the lengths
// asked for, keeping the centre in the centre: an axis longer than asked is
// cropped to a centred window, a shorter one is padded on both sides. An
// odd difference leaves the extra element at the end: the window starts at
// floor((d-s)/2) in the input, the input at floor((s-d)/2) in the output
// (the ONNX reference, op_center_crop_pad.py, and the node tests).
//
// Version: 18 only. Inputs input_data and shape (1-D int32 or int64, one
// length per axis); attribute axes (default: every axis, in order; negative
// values count from the end).
//
// Rules: [shape] shape is 1-D, has one entry per axis, none negative;
// [axes] every axis exists and appears once. Padding is the all-zero
// element: 0, false, "" (and 2^-127 for float8e8m0, which has no zero).

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("CenterCropPad", []int{18}, [2]int{2, 2}, [2]int{1, 1}, centerCropPadNode)
}

// CenterCropPadOptions are the parameters of CenterCropPad.
type CenterCropPadOptions struct {
	// Shape is the output length on each axis of Axes.
	Shape []int
	// Axes lists the axes Shape applies to; nil means every axis, in order.
	// Negative values count from the end.
	Axes []int
}

// CenterCropPad returns x cropped or padded around its centre to o.Shape on
// o.Axes (ONNX CenterCropPad, version 18). The output is a new tensor.
func CenterCropPad(x *tensor.Tensor, o CenterCropPadOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"CenterCropPad", 18}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return centerCropPad(opt, op, x, o)
}

func centerCropPadNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	x, err := n.requiredInput(in, 0, "input_data")
	if err != nil {
		return nil, err
	}
	s, err := n.requiredInput(in, 1, "shape")
	if err != nil {
		return nil, err
	}
	if s.Rank() != 1 {
		return nil, op.errorf("shape", "shape must be a 1-D tensor, got shape %v", s.Shape())
	}
	shape64, err := int64sOf(s)
	if err != nil {
		return nil, op.errorf("shape", "shape must be int32 or int64, got %v", s.DataType())
	}
	var o CenterCropPadOptions
	if o.Shape, err = toInts(shape64); err != nil {
		return nil, op.errorf("shape", "%v", err)
	}
	if axes, ok, err := n.Ints("axes"); err != nil {
		return nil, err
	} else if ok {
		if o.Axes, err = toInts(axes); err != nil {
			return nil, op.errorf("axes", "%v", err)
		}
	}
	y, err := centerCropPad(opt, op, x, o)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

// cropPadWindow is what CenterCropPad copies: the output shape, and on each
// axis the length copied and where it starts in the input and the output.
type cropPadWindow struct {
	shape, count, srcStart, dstStart []int
}

// centerCropPadShape checks the parameters and returns the window; its shape
// is the output shape.
func centerCropPadShape(op opRef, in []int, o CenterCropPadOptions) (cropPadWindow, error) {
	r := len(in)
	axes := o.Axes
	if axes == nil {
		axes = make([]int, r)
		for k := range axes {
			axes[k] = k
		}
	}
	if len(o.Shape) != len(axes) {
		return cropPadWindow{}, op.errorf("shape", "shape has %d entries for %d axes", len(o.Shape), len(axes))
	}
	w := cropPadWindow{
		shape: append([]int{}, in...), count: append([]int{}, in...),
		srcStart: make([]int, r), dstStart: make([]int, r),
	}
	norm, err := normalizeAxes(op, axes, r, axisRules{rangeRule: "axes", repeatRule: "axes", rankOf: "input"})
	if err != nil {
		return cropPadWindow{}, err
	}
	for i, k := range norm {
		s, d := o.Shape[i], in[k]
		if s < 0 {
			return cropPadWindow{}, op.errorf("shape", "shape[%d] = %d is negative", i, s)
		}
		w.shape[k] = s
		if s < d {
			w.count[k], w.srcStart[k] = s, (d-s)/2
		} else {
			w.count[k], w.dstStart[k] = d, (s-d)/2
		}
	}
	return w, nil
}

func centerCropPad(opt *Options, op opRef, x *tensor.Tensor, o CenterCropPadOptions) (*tensor.Tensor, error) {
	if err := checkInput(op, "input_data", x); err != nil {
		return nil, err
	}
	w, err := centerCropPadShape(op, x.Shape(), o)
	if err != nil {
		return nil, err
	}
	y, err := opt.orDefault().newOverwritten(op, x.DataType(), w.shape)
	if err != nil {
		return nil, err
	}
	// One plan copies the kept part of the input into its place, cropping
	// and padding on every axis at once; the padding around it is zeroed
	// alone, at most two boxes an axis. Clearing the whole output first
	// wrote it twice (2.8x a copy of its bytes in the every-operator table).
	moves := opt.moves()
	if err := movement.BoxPlan(w.count, x.Shape(), w.srcStart, nil, w.shape, w.dstStart).Run(moves, y, x); err != nil {
		return nil, op.stopped(err)
	}
	zero := tensor.MustNew(x.DataType(), 1) // all zero bits: 0, false, ""
	for _, p := range paddingPlans(w) {
		if err := p.Run(moves, y, zero); err != nil {
			return nil, op.stopped(err)
		}
	}
	return y, nil
}

// paddingPlans returns the plans that fill the output's padding from a
// one-element source (every source stride 0): on each axis k, the
// elements before and after the kept window, within the window on the
// axes before k and whole on the axes after it, so that each padded
// element is written once.
func paddingPlans(w cropPadWindow) []movement.Plan {
	r := len(w.shape)
	strides := movement.ContiguousStrides(w.shape)
	var plans []movement.Plan
	for k := range r {
		after := w.dstStart[k] + w.count[k]
		for _, side := range [][2]int{{0, w.dstStart[k]}, {after, w.shape[k] - after}} {
			start, width := side[0], side[1]
			if width == 0 {
				continue
			}
			p := movement.Plan{Shape: make([]int, r), DstStrides: strides, SrcStrides: make([]int, r)}
			for j := range r {
				switch {
				case j < k:
					p.Shape[j] = w.count[j]
					p.DstOff += w.dstStart[j] * strides[j]
				case j == k:
					p.Shape[j] = width
					p.DstOff += start * strides[j]
				default:
					p.Shape[j] = w.shape[j]
				}
			}
			plans = append(plans, p)
		}
	}
	return plans
}
