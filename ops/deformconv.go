// DeformConv is Conv whose taps are moved by learned offsets: tap (i, j)
// of output position (h, w) reads X at (h*stride_h - pad_h + i*dilation_h
// + offset_h, w*stride_w - pad_w + j*dilation_w + offset_w), interpolated
// bilinearly from its four neighbours (those outside the image count as 0,
// as GridSample's zeros padding with align_corners, which the reference
// evaluator uses), and multiplied by mask when given. Channels split into
// offset_group groups, each with its own offsets and mask.
//
// Versions: 19, 22 (bfloat16). Types: float16, float, double, bfloat16
// (22); float16 and bfloat16 computed in float32 and rounded once. Two
// spatial axes, as the reference evaluator implements; an X of another
// rank is refused. The engine (ops/internal/conv) samples the taps into
// im2col tiles and multiplies them by W; its sums run in a different order
// than the reference's, within the bound reference.Agree states.
//
// The rules: [type] X, W, offset, B and mask one type the version
// accepts; Conv's shape and window rules (no auto_pad); [input-rank] two
// spatial axes; [offset_group] >= 1, dividing C; [offset] shape N x
// offset_group*kH*kW*2 x the output's spatial shape; [B] M values;
// [mask] shape N x offset_group*kH*kW x the output's; [size].

package ops

import (
	"slices"

	"github.com/onnxshape/onnxshape/ops/internal/conv"
	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/ops/internal/window"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("DeformConv", []int{19, 22}, [2]int{3, 5}, [2]int{1, 1}, deformConvNode)
	declareAttrs("DeformConv",
		AttrSpec{Name: "dilations", Type: AttrInts},
		AttrSpec{Name: "group", Type: AttrInt},
		AttrSpec{Name: "kernel_shape", Type: AttrInts},
		AttrSpec{Name: "offset_group", Type: AttrInt},
		AttrSpec{Name: "pads", Type: AttrInts},
		AttrSpec{Name: "strides", Type: AttrInts})
}

func deformConvNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	w, err := n.requiredInput(in, 1, "W")
	if err != nil {
		return nil, err
	}
	offset, err := n.requiredInput(in, 2, "offset")
	if err != nil {
		return nil, err
	}
	b, err := n.tensorInput(in, 3)
	if err != nil {
		return nil, err
	}
	mask, err := n.tensorInput(in, 4)
	if err != nil {
		return nil, err
	}
	a, err := readConvAttrs(n, false)
	if err != nil {
		return nil, err
	}
	og, err := n.intAttr("offset_group", 1, "offset_group")
	if err != nil {
		return nil, err
	}
	opt = opt.orDefault()
	dt := x.DataType()
	if !convFloatTypeOK(op.version, dt) {
		return nil, op.errorf("type", "X is %v, which version %d does not accept", dt, op.version)
	}
	for _, t := range []struct {
		name string
		t    *tensor.Tensor
	}{{"W", w}, {"offset", offset}, {"B", b}, {"mask", mask}} {
		if t.t != nil && t.t.DataType() != dt {
			return nil, op.errorf("type", "%s is %v, X %v: they must be the same type", t.name, t.t.DataType(), dt)
		}
	}
	shape, axes, err := deformGeometry(op, x.Shape(), w.Shape(), og, a)
	if err != nil {
		return nil, err
	}
	kprod := axes[0].Kernel * axes[1].Kernel
	want := []int{shape[0], og * kprod * 2, shape[2], shape[3]}
	if !slices.Equal(offset.Shape(), want) {
		return nil, op.errorf("offset", "offset has shape %v, expected %v", offset.Shape(), want)
	}
	if err := convBias(op, b, dt, shape[1]); err != nil {
		return nil, err
	}
	want[1] = og * kprod
	if mask != nil && !slices.Equal(mask.Shape(), want) {
		return nil, op.errorf("mask", "mask has shape %v, expected %v", mask.Shape(), want)
	}
	if err := opt.checkSize(op, dt, shape); err != nil {
		return nil, err
	}
	s := convShape(shape[0], x.Shape()[1], shape[1], a.group, axes, false)
	size := 4
	if dt == tensor.Double {
		size = 8
	}
	if err := opt.refuseScratch(op, "the im2col tiles", conv.DeformScratchBytes(s, size, opt.threads())); err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, dt, shape)
	if err != nil {
		return nil, err
	}
	if dt == tensor.Double {
		err = deformFloat[float64](opt, op, s, og, x, w, offset, mask, b, y)
	} else {
		err = deformFloat[float32](opt, op, s, og, x, w, offset, mask, b, y)
	}
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

// deformGeometry checks the shapes and attributes of a DeformConv and
// returns its output shape and axes.
func deformGeometry(op opRef, xs, ws []int, og int, a convAttrs) ([]int, []window.Axis, error) {
	a, err := convWeight(op, xs, ws, a, false)
	if err != nil {
		return nil, nil, err
	}
	if len(xs) != 4 {
		return nil, nil, op.errorf("input-rank", "X has rank %d: only two spatial axes (rank 4) are implemented, as in the reference evaluator", len(xs))
	}
	if og < 1 || xs[1]%og != 0 {
		return nil, nil, op.errorf("offset_group", "offset_group is %d: it must be at least 1 and divide X's %d channels", og, xs[1])
	}
	return convOutputShape(op, xs, ws[0], a)
}

func deformFloat[A convert.Float](opt *Options, op opRef, s conv.Shape, og int, x, w, offset, mask, b, y *tensor.Tensor) error {
	var in [5][]A
	for i, t := range []*tensor.Tensor{x, w, offset, mask, b} {
		var err error
		if in[i], err = convFloatsIn[A](opt, op, t, "an input"); err != nil {
			return convErr(op, err)
		}
	}
	return runFloatConv(opt, op, y, func(out []A) error {
		return convErr(op, conv.Deform(opt.convConfig(op, "the im2col tiles"), s, og, in[0], in[1], in[2], in[3], in[4], out))
	})
}
