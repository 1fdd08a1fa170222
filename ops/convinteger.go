// ConvInteger is Conv over 8-bit integers: the convolution of
// (x - x_zero_point) with (w - w_zero_point), summed exactly in int32 (a
// sum past int32's range wraps, as onnxruntime's does), with Conv's window
// attributes. A tap in the padding adds nothing: the padding is a real 0,
// x_zero_point in x's encoding.
//
// Version 10. Types: x int8 or uint8, w int8 or uint8, output int32;
// x_zero_point (optional, default 0) one value of x's type; w_zero_point
// (optional, default 0) w's type, one value or one per output channel.
// The engine (ops/internal/conv): with one or two spatial axes (or a 1x1)
// an int8 implicit GEMM (conv.IntegerPacked: the weights packed once, at
// load when they are a constant of the model, charged to the model; the
// windows written straight into the product's panels), else im2col tiles
// through gemm.Integer: the result is exact, the same as the reference's.
//
// The rules: [type] x, w, and each zero point the type of its tensor;
// Conv's shape and window rules ([input-rank], [W-rank], [channels],
// [group], [kernel_shape], [strides], [dilations], [pads], [auto_pad]);
// [x_zero_point] one element; [w_zero_point] one element or M; [size].

package ops

import (
	"slices"

	"github.com/onnxshape/onnxshape/ops/internal/conv"
	"github.com/onnxshape/onnxshape/ops/internal/gemm"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("ConvInteger", []int{10}, [2]int{2, 4}, [2]int{1, 1}, convIntegerNode)
	declareAttrs("ConvInteger",
		AttrSpec{Name: "auto_pad", Type: AttrString},
		AttrSpec{Name: "dilations", Type: AttrInts},
		AttrSpec{Name: "group", Type: AttrInt},
		AttrSpec{Name: "kernel_shape", Type: AttrInts},
		AttrSpec{Name: "pads", Type: AttrInts},
		AttrSpec{Name: "strides", Type: AttrInts})
}

func convIntegerNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	x, err := n.requiredInput(in, 0, "x")
	if err != nil {
		return nil, err
	}
	w, err := n.requiredInput(in, 1, "w")
	if err != nil {
		return nil, err
	}
	xz, err := n.tensorInput(in, 2)
	if err != nil {
		return nil, err
	}
	wz, err := n.tensorInput(in, 3)
	if err != nil {
		return nil, err
	}
	a, err := readConvAttrs(n, true)
	if err != nil {
		return nil, err
	}
	opt = opt.orDefault()
	var y *tensor.Tensor
	err = integerConv(opt, op, n, x, w, xz, wz, a, n.packedInput(1, w), func(shape []int) ([]int32, error) {
		var err error
		if y, err = opt.newOverwritten(op, tensor.Int32, shape); err != nil {
			return nil, err
		}
		return tensor.Data[int32](y)
	})
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

// int8Type reports int8 or uint8.
func int8Type(dt tensor.DataType) bool { return dt == tensor.Int8 || dt == tensor.Uint8 }

// integerConv checks what ConvInteger and QLinearConv share (x, w, their
// zero points, the window attributes), asks out for the int32 sums of the
// output shape, and fills them.
// pack is w packed at load (nil: none). n, when not nil, is the node: it
// keeps the geometry of its last run (intConvGeometry, in Node.kept), and
// the next run on x and w of the same shapes takes it.
func integerConv(opt *Options, op opRef, n *Node, x, w, xz, wz *tensor.Tensor, a convAttrs, pack *weightPack, out func(shape []int) ([]int32, error)) error {
	if !int8Type(x.DataType()) {
		return op.errorf("type", "x is %v, expected int8 or uint8", x.DataType())
	}
	if !int8Type(w.DataType()) {
		return op.errorf("type", "w is %v, expected int8 or uint8", w.DataType())
	}
	if xz != nil && xz.DataType() != x.DataType() {
		return op.errorf("type", "x_zero_point is %v, x %v: they must be the same type", xz.DataType(), x.DataType())
	}
	if wz != nil && wz.DataType() != w.DataType() {
		return op.errorf("type", "w_zero_point is %v, w %v: they must be the same type", wz.DataType(), w.DataType())
	}
	g := n.lastIntConv()
	if g == nil || !g.fits(x, w) {
		g = nil
		var err error
		if a, err = convWeight(op, x.Shape(), w.Shape(), a, false); err != nil {
			return err
		}
	}
	m := w.Shape()[0]
	if xz != nil && (xz.Len() != 1 || xz.Rank() > 1) {
		return op.errorf("x_zero_point", "x_zero_point has shape %v, expected one value", xz.Shape())
	}
	if wz != nil && !(wz.Rank() <= 1 && wz.Len() == 1) && !(wz.Rank() == 1 && wz.Len() == m) {
		return op.errorf("w_zero_point", "w_zero_point has shape %v, expected one value or %d (one per output channel)", wz.Shape(), m)
	}
	if g == nil {
		shape, axes, err := convOutputShape(op, x.Shape(), m, a)
		if err != nil {
			return err
		}
		g = &intConvGeometry{xs: slices.Clone(x.Shape()), ws: slices.Clone(w.Shape()), shape: shape,
			s: convShape(x.Shape()[0], x.Shape()[1], m, a.group, axes, false)}
		if n != nil {
			n.kept.Store(g)
		}
	}
	shape, s := g.shape, g.s
	if err := opt.checkSize(op, tensor.Int32, shape); err != nil {
		return err
	}
	var pw *conv.IntegerWeights
	if pack != nil && pack.c8.Fits(s, w.DataType() == tensor.Int8) {
		pw = pack.c8
	}
	implicit := conv.IntegerImplicitOK(s)
	if implicit {
		if err := opt.refuseScratch(op, "the panels", conv.IntegerImplicitScratchBytes(s, opt.threads(), pw != nil)); err != nil {
			return err
		}
	} else if err := opt.refuseScratch(op, "the im2col tiles", conv.IntegerScratchBytes(s, opt.threads())); err != nil {
		return err
	}
	y, err := out(shape)
	if err != nil {
		return err
	}
	var xzero byte
	if xz != nil {
		xzero = xz.Bytes()[0]
	}
	var wzero []int32
	if wz != nil {
		wzero = make([]int32, wz.Len()) // at most M
		for i, b := range wz.Bytes()[:wz.Len()] {
			wzero[i] = int32(b)
			if wz.DataType() == tensor.Int8 {
				wzero[i] = int32(int8(b))
			}
		}
	}
	if implicit {
		return convErr(op, conv.IntegerPacked(opt.convConfig(op, "the panels"), s, x.Bytes(), x.DataType() == tensor.Int8, xzero,
			w.Bytes(), w.DataType() == tensor.Int8, pw, wzero, y))
	}
	return convErr(op, conv.Integer(opt.convConfig(op, "the im2col tiles"), s, x.Bytes(), x.DataType() == tensor.Int8, xzero,
		w.Bytes(), w.DataType() == tensor.Int8, wzero, y))
}

// intConvGeometry is what ConvInteger and QLinearConv derive from the
// shapes of x and w and the node's attributes: the output shape and the
// convolution's shape. A node keeps the one of its last run (Node.kept),
// never modified once stored.
type intConvGeometry struct {
	xs, ws []int
	shape  []int
	s      conv.Shape
}

// lastIntConv is the geometry the node kept, nil for none (or no node).
func (n *Node) lastIntConv() *intConvGeometry {
	if n == nil {
		return nil
	}
	g, _ := n.kept.Load().(*intConvGeometry)
	return g
}

// fits reports whether g is the geometry of x and w's shapes.
func (g *intConvGeometry) fits(x, w *tensor.Tensor) bool {
	return tensor.SameShape(g.xs, x.Shape()) && tensor.SameShape(g.ws, w.Shape())
}

// packConvIntegerW packs an int8 or uint8 convolution weight (M x C/group
// x kernel) per group for conv.IntegerPacked; the kernel uses it only when
// the shapes it checks agree (IntegerWeights.Fits).
func packConvIntegerW(n *Node, w *tensor.Tensor, cfg gemm.Config) (*weightPack, error) {
	s := w.Shape()
	group, err := n.Int("group", 1)
	if err != nil || len(s) < 3 || !int8Type(w.DataType()) || group <= 0 || int64(group) > int64(s[0]) || s[0]%int(group) != 0 {
		return nil, nil // the kernel reports it
	}
	k := 1
	for _, d := range s[1:] {
		k *= d
	}
	pw, err := conv.PackIntegerWeights(cfg, s[0], k, int(group), w.Bytes(), w.DataType() == tensor.Int8)
	if err != nil {
		return nil, err
	}
	return &weightPack{c8: pw}, nil
}
