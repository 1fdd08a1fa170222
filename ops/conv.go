// Conv convolves X (N x C x D1 x ... x Dn) with the filters W (M x C/group
// x k1 x ... x kn), adding the bias B (M values) when given: output channel
// m of group g = m / (M/group) sums, over the C/group input channels of
// that group and the kernel's taps, the tap's weight times the element of
// X it covers; taps in the padding add nothing.
//
// Versions: 1, 11 (no change to the computation: kernel_shape, strides,
// pads, dilations, group and auto_pad in both), 22 (bfloat16). Types:
// float16, float, double, bfloat16 (22); float16 and bfloat16 are computed
// in float32 and rounded once. The engine is ops/internal/conv (GEMM
// lowering: a 1x1 is a plain product, depthwise a direct kernel, the rest
// im2col in bounded tiles); its sums run in a different order than the
// reference's, within the bound reference.Agree states.
//
// The rules, in order: [type] X is a type the version accepts and W (and
// B) the same; [input-rank] X has a spatial axis; [W-rank] W has X's rank;
// [channels] C = W's second dim times group; [group] group >= 1 divides
// M; [kernel_shape] kernel_shape (optional) is W's spatial shape; the
// window attributes as pooling's (ops/internal/window: [strides], [dilations],
// [pads], [auto_pad]); [B] B holds M values; [kernel_shape] the dilated
// kernel fits the padded input; [size] the output and the im2col tiles fit
// the caps.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/conv"
	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/ops/internal/window"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Conv", []int{1, 11, 22}, [2]int{2, 3}, [2]int{1, 1}, convNode)
	declareAttrs("Conv",
		AttrSpec{Name: "auto_pad", Type: AttrString},
		AttrSpec{Name: "dilations", Type: AttrInts},
		AttrSpec{Name: "group", Type: AttrInt},
		AttrSpec{Name: "kernel_shape", Type: AttrInts},
		AttrSpec{Name: "pads", Type: AttrInts},
		AttrSpec{Name: "strides", Type: AttrInts})
}

// ConvOptions are the attributes of Conv. The zero value of each field is
// the ONNX default; slices hold one value per spatial axis (Pads two: all
// the beginnings, then all the ends).
type ConvOptions struct {
	AutoPad     string // NOTSET (or ""), SAME_UPPER, SAME_LOWER or VALID
	Dilations   []int  // nil: 1 on every axis
	Group       int    // 0: 1
	KernelShape []int  // nil: W's spatial shape
	Pads        []int  // nil: 0 on every side
	Strides     []int  // nil: 1 on every axis
}

// Conv returns the convolution of x with the filters w plus the bias b
// (nil for none) (ONNX Conv, version 22).
func Conv(x, w, b *tensor.Tensor, o ConvOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Conv", 22}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	if x == nil || w == nil {
		return nil, op.errorf("input", "X and W are required")
	}
	a := convAttrs{Attrs: window.Attrs{Kernel: o.KernelShape, Strides: o.Strides, Pads: o.Pads,
		Dilations: o.Dilations, AutoPad: o.AutoPad}, group: max(o.Group, 1)}
	if o.Group < 0 {
		return nil, op.errorf("group", "group is %d, expected at least 1", o.Group)
	}
	return runConv(opt, op, x, w, b, a)
}

func convNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	w, err := n.requiredInput(in, 1, "W")
	if err != nil {
		return nil, err
	}
	b, err := n.tensorInput(in, 2)
	if err != nil {
		return nil, err
	}
	a, err := readConvAttrs(n, true)
	if err != nil {
		return nil, err
	}
	y, err := runConv(opt, n.op(), x, w, b, a)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

// ConvShape returns the output shape of Conv-22 for inputs of shapes x and
// w under o, without computing it.
func ConvShape(x, w []int, o ConvOptions) ([]int, error) {
	op := opRef{"Conv", 22}
	a := convAttrs{Attrs: window.Attrs{Kernel: o.KernelShape, Strides: o.Strides, Pads: o.Pads,
		Dilations: o.Dilations, AutoPad: o.AutoPad}, group: max(o.Group, 1)}
	a, err := convWeight(op, x, w, a, false)
	if err != nil {
		return nil, err
	}
	shape, _, err := convOutputShape(op, x, w[0], a)
	return shape, err
}

func runConv(opt *Options, op opRef, x, w, b *tensor.Tensor, a convAttrs) (*tensor.Tensor, error) {
	opt = opt.orDefault()
	dt := x.DataType()
	if !convFloatTypeOK(op.version, dt) {
		return nil, op.errorf("type", "X is %v, which version %d does not accept", dt, op.version)
	}
	if w.DataType() != dt {
		return nil, op.errorf("type", "W is %v, X %v: they must be the same type", w.DataType(), dt)
	}
	a, err := convWeight(op, x.Shape(), w.Shape(), a, false)
	if err != nil {
		return nil, err
	}
	m := w.Shape()[0]
	if err := convBias(op, b, dt, m); err != nil {
		return nil, err
	}
	shape, axes, err := convOutputShape(op, x.Shape(), m, a)
	if err != nil {
		return nil, err
	}
	if err := opt.checkSize(op, dt, shape); err != nil {
		return nil, err
	}
	s := convShape(x.Shape()[0], x.Shape()[1], m, a.group, axes, false)
	size := 4
	if dt == tensor.Double {
		size = 8
	}
	if err := opt.refuseScratch(op, "the im2col tiles", conv.ScratchBytes(s, size, opt.threads())); err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, dt, shape)
	if err != nil {
		return nil, err
	}
	if dt == tensor.Double {
		err = convFloat[float64](opt, op, s, x, w, b, y)
	} else {
		err = convFloat[float32](opt, op, s, x, w, b, y)
	}
	if err != nil {
		return nil, err
	}
	return y, nil
}

func convFloat[A convert.Float](opt *Options, op opRef, s conv.Shape, x, w, b, y *tensor.Tensor) error {
	xv, err := convFloatsIn[A](opt, op, x, "X")
	if err != nil {
		return convErr(op, err)
	}
	wv, err := convFloatsIn[A](opt, op, w, "W")
	if err != nil {
		return convErr(op, err)
	}
	bv, err := convFloatsIn[A](opt, op, b, "B")
	if err != nil {
		return convErr(op, err)
	}
	return runFloatConv(opt, op, y, func(out []A) error {
		return convErr(op, conv.Forward(opt.convConfig(op, "the im2col tiles"), s, xv, wv, bv, out))
	})
}
