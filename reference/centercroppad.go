// CenterCropPad (ONNX CenterCropPad 18): the input cropped or padded, on
// the axes listed, to the lengths asked for, centre kept in the centre. On
// an axis of length d asked to be s, output index j reads input index
// j + floor((d-s)/2) when cropping (s < d), and j - floor((s-d)/2) when
// padding, if that lies in [0, d); else the element is the all-zero one
// (0, false, ""; 2^-127 for float8e8m0, which has no zero), as the ONNX
// reference (op_center_crop_pad.py) computes it. Inputs input_data and
// shape (1-D int32 or int64, one length per axis); attribute axes (default
// every axis in order; negative values count from the end). The rules:
//
//	[shape] 1-D, one entry per listed axis, none negative
//	[axes]  every axis exists and appears once

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("CenterCropPad", []int{18}, centerCropPad)
}

func centerCropPad(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "input_data")
	if err != nil {
		return nil, err
	}
	s, err := requiredInput(op, in, 1, "shape")
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
	sizes, err := toInts(shape64)
	if err != nil {
		return nil, op.errorf("shape", "%v", err)
	}
	r := x.Rank()
	axes := make([]int, r)
	for k := range axes {
		axes[k] = k
	}
	if a, ok, err := n.Ints("axes"); err != nil {
		return nil, err
	} else if ok {
		if axes, err = toInts(a); err != nil {
			return nil, op.errorf("axes", "%v", err)
		}
	}
	if len(sizes) != len(axes) { // [shape]
		return nil, op.errorf("shape", "shape has %d entries for %d axes", len(sizes), len(axes))
	}
	norm, err := normalizeAxes(op, axes, r, false, "axes", "axes", "input") // [axes]
	if err != nil {
		return nil, err
	}
	dX := x.Shape()
	dY := append([]int{}, dX...)
	shift := make([]int, r) // input index = output index + shift
	for i, k := range norm {
		if sizes[i] < 0 { // [shape]
			return nil, op.errorf("shape", "shape[%d] = %d is negative", i, sizes[i])
		}
		dY[k] = sizes[i]
		if sizes[i] < dX[k] {
			shift[k] = (dX[k] - sizes[i]) / 2
		} else {
			shift[k] = -((sizes[i] - dX[k]) / 2)
		}
	}
	y, err := newTensor(opt, op, x.DataType(), dY) // zero-filled: the padding
	if err != nil {
		return nil, err
	}
	xStrides := stridesOf(dX)
	i := make([]int, r)
	if err := forEachIndexPolled(opt, opOf(n), dY, 1, func(flat int, j []int) {
		for k := range j {
			i[k] = j[k] + shift[k]
			if i[k] < 0 || i[k] >= dX[k] {
				return
			}
		}
		copyElement(y, flat, x, ravel(i, xStrides))
	}); err != nil {
		return nil, err
	}
	return values(y), nil
}
