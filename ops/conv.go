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
// lowering: a 1x1 is a plain product, depthwise a direct kernel, float
// over one or two spatial axes an implicit GEMM that writes the windows
// straight into the product's panels, the rest im2col in bounded tiles);
// its sums run in a different order than the reference's, within the
// bound reference.Agree states.
//
// The rules, in order: [type] X is a type the version accepts and W (and
// B) the same; [input-rank] X has a spatial axis; [W-rank] W has X's rank;
// [channels] C = W's second dim times group; [group] group >= 1 divides
// M; [kernel_shape] kernel_shape (optional) is W's spatial shape; the
// window attributes as pooling's (ops/internal/window: [strides], [dilations],
// [pads], [auto_pad]); [B] B holds M values; [kernel_shape] the dilated
// kernel fits the padded input; [size] the output and the im2col tiles or
// panels fit the caps.

package ops

import (
	"slices"
	"sync/atomic"

	"github.com/onnxshape/onnxshape/ops/internal/conv"
	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/ops/internal/gemm"
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
	return runConv(opt, op, nil, x, w, b, a, nil)
}

func convNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	if f := n.fusion; f != nil && f.qdq != nil && opt.fusing() {
		return n.runQDQConv(opt, f.qdq, in) // its 8-bit x, qdqconv.go
	}
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
	if blk := n.fusedBlock(opt); blk != nil {
		// X is the block's input (convblock.go).
		y, front, err := n.runBlock(opt, blk, x, w, b, n.residualIn(opt, in))
		if err != nil {
			return nil, err
		}
		if y != nil {
			return opt.result(y), nil
		}
		x = front
	} else if fr := n.fusedFront(opt); fr != nil {
		// X is the expansion's input; the output dw's (convblock.go).
		return n.runFront(opt, fr, x, w, b, in)
	}
	return n.convTail(opt, x, w, b, in)
}

// convTail is Conv on x, w and b (in the node's inputs), with what n fused.
func (n *Node) convTail(opt *Options, x, w, b *tensor.Tensor, in []tensor.Value) ([]tensor.Value, error) {
	var err error
	var a convAttrs
	pads := n.fusedPads(opt)
	if g := n.lastConv(); g == nil || !g.fits(x, w, pads != nil) {
		// A run with the shapes of the last one reads no attribute:
		// runConv takes the geometry the node kept.
		if a, err = readConvAttrs(n, true); err != nil {
			return nil, err
		}
		if pads != nil {
			a.Pads = pads
		}
	}
	w, b = n.foldedConv(opt, w, b)
	res := n.residualIn(opt, in)
	y, err := runConv(opt, n.op(), n, x, w, b, a, res)
	if err != nil {
		return nil, err
	}
	return opt.result(y), nil
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

// runConv is Conv; n, when not nil, is the node, whose fused residual Add
// (res, FuseResidual) and activation (FuseActivation) run as the
// epilogue.
func runConv(opt *Options, op opRef, n *Node, x, w, b *tensor.Tensor, a convAttrs, res *tensor.Tensor) (*tensor.Tensor, error) {
	opt = opt.orDefault()
	dt := x.DataType()
	if !convFloatTypeOK(op.version, dt) {
		return nil, op.errorf("type", "X is %v, which version %d does not accept", dt, op.version)
	}
	if w.DataType() != dt {
		return nil, op.errorf("type", "W is %v, X %v: they must be the same type", w.DataType(), dt)
	}
	g, err := n.convGeometryOf(op, x, w, a, n.fusedPads(opt) != nil)
	if err != nil {
		return nil, err
	}
	m, shape, s := g.s.M, g.shape, g.s
	if err := convBias(op, b, dt, m); err != nil {
		return nil, err
	}
	if err := opt.checkSize(op, dt, shape); err != nil {
		return nil, err
	}
	size := 4
	if dt == tensor.Double {
		size = 8
	}
	if err := opt.refuseScratch(op, "the im2col tiles or panels", conv.ScratchBytes(s, size, opt.threads())); err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, dt, shape)
	if err != nil {
		return nil, err
	}
	cfg, acct := opt.convCall(op, "the im2col tiles or panels")
	defer acct.release()
	// A residual of the output's type and shape is added block by block
	// (convEpilogue); any other, after the whole output, by the Add's own
	// kernel, and the activation after it.
	blockRes := res != nil && res.DataType() == dt && tensor.SameShape(res.Shape(), shape) && (dt == tensor.Float || dt == tensor.Double)
	var done bool
	var missed *atomic.Bool
	if res == nil || blockRes {
		if done, missed, err = n.convEpilogue(opt, dt, &cfg, acct, y, res); err != nil {
			return nil, err
		}
	}
	few, err := convFew(opt, op, n, cfg, s, x, w, b, y)
	switch {
	case few:
	case dt == tensor.Double:
		err = convFloat[float64](opt, op, n, cfg, s, x, w, b, y)
	default:
		err = convFloat[float32](opt, op, n, cfg, s, x, w, b, y)
	}
	if err != nil {
		return nil, err
	}
	if missed != nil && missed.Load() {
		return nil, op.errorf("internal", "the epilogue saw a block outside the output")
	}
	if res != nil && !blockRes {
		if y, err = n.addResidual(opt, y, res); err != nil {
			return nil, err
		}
	}
	if !done {
		if err := n.applyEpilogue(opt, y); err != nil {
			return nil, err
		}
	}
	return y, nil
}

func convFloat[A convert.Float](opt *Options, op opRef, n *Node, cfg conv.Config, s conv.Shape, x, w, b, y *tensor.Tensor) error {
	var xv []A
	if _, f32 := any(xv).([]float32); f32 && !convert.NativeFloat[A](x.DataType()) {
		// A float16 or bfloat16 X in float32 scratch kept between calls.
		if err := opt.scratch(op, "X in float32", x.Len(), 4); err != nil {
			return err
		}
		p := conv.GetScratch[float32](x.Len())
		defer conv.PutScratch(p)
		if err := convert.LoadFloatsInto(*p, x); err != nil {
			return convErr(op, err)
		}
		xv = any(*p).([]A)
	}
	var err error
	if xv == nil {
		if xv, err = convFloatsIn[A](opt, op, x, "X"); err != nil {
			return convErr(op, err)
		}
	}
	// float16 or bfloat16 weights of the model come converted at load
	// (packConvW).
	var wv []A
	p := n.packedInput(1, w)
	if p != nil && p.t32 != nil {
		wv, _ = any(p.t32).([]A)
	}
	if p != nil {
		cfg.WeightsT, cfg.WeightsA = p.at32, p.a32
	}
	if p != nil && p.packedOnly {
		// The folded weights are kept only packed: read there alone, or
		// unpacked into scratch for a run that reads them in place.
		if _, f32 := any(wv).([]float32); !f32 {
			return op.errorf("internal", "float32 weights kept packed, X is %v", x.DataType())
		}
		if !conv.PackedOnly(cfg, s, b != nil) {
			m, k := p.a32.M(), p.a32.K()
			if err := opt.scratch(op, "W unpacked from its packed copy", m*k, 4); err != nil {
				return err
			}
			buf := conv.GetScratch[float32](m * k)
			defer conv.PutScratch(buf)
			p.a32.Unpack(*buf)
			wv = any(*buf).([]A)
		}
	} else if wv == nil {
		if wv, err = convFloatsIn[A](opt, op, w, "W"); err != nil {
			return convErr(op, err)
		}
	}
	bv, err := convFloatsIn[A](opt, op, b, "B")
	if err != nil {
		return convErr(op, err)
	}
	return runFloatConv(opt, op, y, func(out []A) error {
		return convErr(op, conv.Forward(cfg, s, xv, wv, bv, out))
	})
}

// What the convolution operators share (Conv, ConvTranspose, ConvInteger,
// QLinearConv, DeformConv, Col2Im): reading and checking the window
// attributes (kernel_shape, strides, dilations, pads, auto_pad, group),
// the channels of X against the weight, the output geometry, and the glue
// to the engine (ops/internal/conv): its Config, the float inputs in the
// type the engine computes in, and the refusal of scratch above the caps
// before any work. The window rules are pooling's (ops/internal/window); the rule names
// are the attributes'.

// convAttrs are the attributes of a convolution node, spatial axes only.
type convAttrs struct {
	window.Attrs
	group int
	// ConvTranspose only.
	outputPadding, outputShape []int
}

// readConvAttrs reads a convolution node's attributes; kernel_shape may be
// absent (it is then W's spatial shape), auto_pad is read when withAutoPad.
func readConvAttrs(n *Node, withAutoPad bool) (convAttrs, error) {
	var a convAttrs
	var err error
	for _, f := range []struct {
		name string
		dst  *[]int
	}{{"kernel_shape", &a.Kernel}, {"strides", &a.Strides}, {"pads", &a.Pads}, {"dilations", &a.Dilations}} {
		if *f.dst, _, err = n.intsAttr(f.name, f.name); err != nil {
			return a, err
		}
	}
	if withAutoPad {
		if a.AutoPad, err = n.Str("auto_pad", window.AutoPadNotSet); err != nil {
			return a, err
		}
	}
	if a.group, err = n.intAttr("group", 1, "group"); err != nil {
		return a, err
	}
	if a.group < 1 {
		return a, n.op().errorf("group", "group is %d, expected at least 1", a.group)
	}
	return a, nil
}

// convWeight checks the rank of X and W (the weight's second dim
// holding C/group, or for ConvTranspose, its first C), fills kernel_shape
// from W, and checks the window attributes. It returns the attributes
// with the defaults filled in.
func convWeight(op opRef, xs, ws []int, a convAttrs, transposed bool) (convAttrs, error) {
	if len(xs) < 3 {
		return a, op.errorf("input-rank", "X needs at least one spatial axis after N and C, got rank %d", len(xs))
	}
	if len(ws) != len(xs) {
		return a, op.errorf("W-rank", "W has rank %d, X rank %d: they must be equal", len(ws), len(xs))
	}
	c := xs[1]
	if transposed {
		if ws[0] != c {
			return a, op.errorf("channels", "X has %d channels, W's first dim is %d", c, ws[0])
		}
		if c%a.group != 0 {
			return a, op.errorf("group", "X's %d channels do not divide into %d groups", c, a.group)
		}
	} else {
		if ws[1]*a.group != c {
			return a, op.errorf("channels", "X has %d channels, W takes %d in each of %d groups", c, ws[1], a.group)
		}
		if ws[0]%a.group != 0 {
			return a, op.errorf("group", "W's %d output channels do not divide into %d groups", ws[0], a.group)
		}
	}
	if a.Kernel == nil {
		a.Kernel = append([]int(nil), ws[2:]...)
		for i, k := range a.Kernel {
			if k < 1 {
				return a, op.errorf("kernel_shape", "W's spatial dim %d is %d: a kernel needs at least one tap", i+2, k)
			}
		}
	} else if len(a.Kernel) == len(ws)-2 {
		for i, k := range a.Kernel {
			if k != ws[i+2] {
				return a, op.errorf("kernel_shape", "kernel_shape %v differs from W's spatial shape %v", a.Kernel, ws[2:])
			}
		}
	}
	p, err := checkPoolAttrs(op, len(xs)-2, a.Attrs)
	if err != nil {
		return a, err
	}
	a.Attrs = p
	return a, nil
}

// convBias checks the optional bias B: m values, 1-D.
func convBias(op opRef, b *tensor.Tensor, dt tensor.DataType, m int) error {
	if b == nil {
		return nil
	}
	if b.DataType() != dt {
		return op.errorf("type", "B is %v, expected %v", b.DataType(), dt)
	}
	if b.Rank() != 1 || b.Shape()[0] != m {
		return op.errorf("B", "B has shape %v, expected [%d]", b.Shape(), m)
	}
	return nil
}

// convOutputShape is the output shape of Conv (and ConvInteger,
// QLinearConv) for X's shape and checked attributes: N, M, then the
// window positions along each spatial axis (pooling's geometry without
// ceil_mode).
func convOutputShape(op opRef, xs []int, m int, a convAttrs) ([]int, []window.Axis, error) {
	axes, err := poolGeometry(op, xs[2:], a.Attrs)
	if err != nil {
		return nil, nil, err
	}
	out := []int{xs[0], m}
	for _, ax := range axes {
		out = append(out, ax.Out)
	}
	return out, axes, nil
}

// convGeometry is what Conv derives from the shapes of X and W and the
// node's attributes before any work: the output shape and the engine's
// Shape. A node keeps the one of its last run (Node.conv) and the next
// run with the same shapes takes it as it is, reading no attribute and
// checking nothing again: a small convolution over a few positions (a
// streaming model's step) spent as long on this as on its product.
type convGeometry struct {
	xs, ws []int
	shape  []int // the output's
	s      conv.Shape
	// padded marks a geometry with the pads of a fused Pad (FusePad): a
	// run that does not fuse reads the node's own.
	padded bool
}

// lastConv is the geometry the node kept, nil for none.
func (n *Node) lastConv() *convGeometry {
	g, _ := n.conv.Load().(*convGeometry)
	return g
}

// fits reports whether g is the geometry of X and W of these shapes, with
// (padded) or without the pads of a fused Pad.
func (g *convGeometry) fits(x, w *tensor.Tensor, padded bool) bool {
	return g.padded == padded && tensor.SameShape(g.xs, x.Shape()) && tensor.SameShape(g.ws, w.Shape())
}

// convGeometryOf checks X's and W's shapes against the attributes a (with
// convWeight's rules) and returns the output shape and the engine's Shape;
// for a node, the one it kept when the shapes are those of its last run
// (a is then not read).
func (n *Node) convGeometryOf(op opRef, x, w *tensor.Tensor, a convAttrs, padded bool) (*convGeometry, error) {
	if n != nil {
		if g := n.lastConv(); g != nil && g.fits(x, w, padded) {
			return g, nil
		}
	}
	a, err := convWeight(op, x.Shape(), w.Shape(), a, false)
	if err != nil {
		return nil, err
	}
	m := w.Shape()[0]
	shape, axes, err := convOutputShape(op, x.Shape(), m, a)
	if err != nil {
		return nil, err
	}
	g := &convGeometry{xs: slices.Clone(x.Shape()), ws: slices.Clone(w.Shape()), shape: shape,
		s: convShape(x.Shape()[0], x.Shape()[1], m, a.group, axes, false), padded: padded}
	if n != nil {
		n.conv.Store(g)
	}
	return g, nil
}

// convShape is the engine's Shape of a convolution with these axes.
func convShape(n, c, m, group int, axes []window.Axis, transposed bool) conv.Shape {
	r := len(axes)
	buf := make([]int, 6*r) // one allocation for the six lists
	part := func(i int) []int { return buf[i*r : (i+1)*r : (i+1)*r] }
	s := conv.Shape{N: n, C: c, M: m, Group: group,
		Image: part(0), Grid: part(1), Kernel: part(2), Stride: part(3), Dilation: part(4), Pad: part(5)}
	for i, ax := range axes {
		if transposed {
			s.Image[i], s.Grid[i] = ax.Out, ax.In
		} else {
			s.Image[i], s.Grid[i] = ax.In, ax.Out
		}
		s.Kernel[i], s.Stride[i], s.Dilation[i], s.Pad[i] = ax.Kernel, ax.Stride, ax.Dilation, ax.PadBegin
	}
	return s
}

// convConfig is the engine's Config for a run: its context, cores, and
// scratch charged as op's (checked against the per-tensor cap first).
//
// Under the model runner (o.env.Headers set), whose nodes run one at a
// time, the account, the budget's function and the block epilogue
// (convEpilogue) are o's own, reset at each call, as gemmConfig's are:
// a convolution in an If branch or a recurrent step then allocates none
// of them.
func (o *Options) convConfig(op opRef, what string) conv.Config {
	cfg, _ := o.convCall(op, what)
	return cfg
}

// convCall is convConfig with the call's account, whose block epilogue
// convEpilogue sets.
func (o *Options) convCall(op opRef, what string) (conv.Config, *convAccount) {
	o = o.orDefault()
	if o.env.Headers != nil {
		a := o.conv
		if a == nil || a.o != o { // a copy of a run's Options makes its own
			a = &convAccount{o: o}
			a.charge = a.chargeScratch
			o.conv = a
		}
		a.op, a.what, a.scratch = op, what, gemm.Scratch{}
		return conv.Config{Ctx: o.env.Ctx, Threads: o.threads(), Charge: a.charge, Scratch: &a.scratch}, a
	}
	a := &convAccount{o: o, op: op, what: what}
	return conv.Config{Ctx: o.env.Ctx, Threads: o.threads(), Charge: a.chargeScratch, Scratch: &a.scratch}, a
}

// convAccount is a convolution call's scratch account and budget's
// function (convConfig), and its block epilogue (convEpilogue); a model
// run's Options keeps one for the nodes it runs one after another.
type convAccount struct {
	o       *Options
	op      opRef
	what    string
	charge  func(int64) error // a.chargeScratch, bound once
	scratch gemm.Scratch
	epi32   blockEpilogue[float32]
	epi64   blockEpilogue[float64]
	clamp   [2]float32
}

// release lets go of what the call's epilogue points at.
func (a *convAccount) release() {
	a.epi32.yv, a.epi32.rv, a.epi32.act = nil, nil, nil
	a.epi64.yv, a.epi64.rv, a.epi64.act = nil, nil, nil
}

func (a *convAccount) chargeScratch(bytes int64) error {
	if bytes > a.o.maxBytes() {
		return a.o.scratch(a.op, a.what, int(min(bytes, 1<<62)), 1)
	}
	return a.o.charge(a.op, a.what, bytes)
}

// refuseScratch refuses, before any work, scratch that one buffer of the
// per-tensor cap cannot hold.
func (o *Options) refuseScratch(op opRef, what string, bytes int64) error {
	o = o.orDefault()
	if bytes > o.maxBytes() {
		return o.scratch(op, what, int(min(bytes, 1<<62)), 1)
	}
	return nil
}

// convFloatsIn returns t's elements as []A for the engine: a float or
// double tensor's own storage (read only), a float16 or bfloat16 one
// converted after charging it.
func convFloatsIn[A convert.Float](opt *Options, op opRef, t *tensor.Tensor, what string) ([]A, error) {
	if t == nil {
		return nil, nil
	}
	if !convert.NativeFloat[A](t.DataType()) {
		if err := opt.scratch(op, what+" in float32", t.Len(), sizeOfFloat[A]()); err != nil {
			return nil, err
		}
	}
	return convert.LoadFloatsPolled[A](opt.orDefault().env.Ctx, t)
}

// convFloatTypeOK reports whether a version of Conv, ConvTranspose or
// DeformConv accepts dt: float16, float, double, and bfloat16 from
// version 22.
func convFloatTypeOK(version int, dt tensor.DataType) bool {
	return poolFloatTypeOK(version, dt)
}

// runFloatConv runs f, the engine over []A, into y: directly on y's
// storage for float and double, through a float32 buffer (charged) rounded
// once into y for float16 and bfloat16.
func runFloatConv[A convert.Float](opt *Options, op opRef, y *tensor.Tensor, f func(out []A) error) error {
	if convert.NativeFloat[A](y.DataType()) {
		out, err := tensor.Data[A](y)
		if err != nil {
			return err
		}
		return f(out)
	}
	if err := opt.scratch(op, "the output in float32", y.Len(), 4); err != nil {
		return err
	}
	var out []A
	if _, f32 := any(out).([]float32); f32 {
		// The engine writes every element of its output: scratch of any
		// content, kept between calls.
		p := conv.GetScratch[float32](y.Len())
		defer conv.PutScratch(p)
		out = any(*p).([]A)
	} else {
		out = make([]A, y.Len())
	}
	if err := f(out); err != nil {
		return err
	}
	return convert.StoreFloatsPolled(opt.orDefault().env.Ctx, y, out)
}

// convErr turns an engine error into op's: a refusal of the budget
// already is one, a cancellation becomes op's cancellation.
func convErr(op opRef, err error) error {
	if err == nil {
		return nil
	}
	if _, ok := err.(*Error); ok {
		return err
	}
	return op.wrap("cancelled", err, "cancelled")
}

// packConvW packs the weights of a one-group float Conv once: a 2-D one's
// in the GEMM kernel's panels (conv.Config.WeightsA; a 1x1 of 64 output
// channels or more also with the channels on the lanes, WeightsT; a fused
// block's 1x1s, which the block reads in place, only WeightsT); a 1-D
// one's ([M, C, k]) transposed, as the B operand of the few-positions path
// (conv.ForwardFew), which runConv takes when the output has few
// positions and the weights are this very tensor.
func packConvW(n *Node, w *tensor.Tensor, cfg gemm.Config) (*weightPack, error) {
	if dt := w.DataType(); dt == tensor.Float16 || dt == tensor.BFloat16 {
		// The engine computes float16 and bfloat16 in float32: the weights
		// converted once (the values convFloatsIn would give at each run).
		if cfg.Charge != nil {
			if err := cfg.Charge(4 * int64(w.Len())); err != nil {
				return nil, err
			}
		}
		v, err := convert.LoadFloats[float32](w)
		if err != nil {
			return nil, nil
		}
		return &weightPack{t32: v}, nil
	}
	s := w.Shape()
	if group, err := n.Int("group", 1); err != nil || group != 1 || w.DataType() != tensor.Float {
		return nil, nil
	}
	if n.fusion.readsInPlace() {
		// A block's expansion or projection, a front's expansion, a scaled
		// projection: the fused kernel reads its weights in place (and
		// WeightsT), never packed in panels.
		if len(s) == 4 && s[0] >= 64 && s[2] == 1 && s[3] == 1 && pointwiseAttrs(n) {
			pa, err := conv.PackWeightsT(conv.Config{Charge: cfg.Charge}, s[0], s[1]*s[2]*s[3], elems[float32](w))
			if err != nil || pa == nil {
				return nil, err
			}
			return &weightPack{at32: pa}, nil
		}
		return nil, nil
	}
	if len(s) == 4 && s[0] >= 64 && s[2] == 1 && s[3] == 1 && pointwiseAttrs(n) {
		// A 1x1 convolution (stride 1, no padding) of 64 output channels
		// or more: its products over a small plane (7x7) run with the
		// channels on the lanes (conv.Config.WeightsT), from weights
		// packed here once. The plane is not known before a run, so
		// every such Conv's weights are packed.
		pa, err := conv.PackWeightsT(conv.Config{Charge: cfg.Charge}, s[0], s[1]*s[2]*s[3], elems[float32](w))
		if err != nil {
			return nil, err
		}
		// Over a larger plane its products read the weights packed in the
		// usual kernel's panels (conv.Config.WeightsA).
		a, err := conv.PackWeightsA(conv.Config{Charge: cfg.Charge}, s[0], s[1]*s[2]*s[3], elems[float32](w))
		if err != nil {
			return nil, err
		}
		return &weightPack{at32: pa, a32: a}, nil
	}
	if len(s) == 4 {
		// A 2-D convolution: its weights packed in the kernel's panels,
		// read as one stream by the implicit GEMM and the 1x1 products
		// (conv.Config.WeightsA).
		pa, err := conv.PackWeightsA(conv.Config{Charge: cfg.Charge}, s[0], s[1]*s[2]*s[3], elems[float32](w))
		if err != nil || pa == nil {
			return nil, err
		}
		return &weightPack{a32: pa}, nil
	}
	if len(s) != 3 {
		return nil, nil
	}
	pb, err := conv.PackFew(conv.Config{Charge: cfg.Charge}, s[0], s[1]*s[2], elems[float32](w))
	if err != nil {
		return nil, err
	}
	return &weightPack{f32: pb}, nil
}

// pointwiseAttrs reports a Conv node whose strides are 1 and whose pads
// are 0 (or not given, auto_pad NOTSET or VALID): with a 1x1 kernel, the
// product reads the image in place.
func pointwiseAttrs(n *Node) bool {
	if ap, err := n.Str("auto_pad", "NOTSET"); err != nil || (ap != "NOTSET" && ap != "VALID") {
		return false
	}
	for _, name := range []string{"strides", "pads"} {
		v, _, err := n.Ints(name)
		if err != nil {
			return false
		}
		for _, x := range v {
			if name == "strides" && x != 1 || name == "pads" && x != 0 {
				return false
			}
		}
	}
	return true
}

// convFew runs conv.ForwardFew when s has few output positions and the
// node holds w packed for it (packConvW); it reports whether it ran.
func convFew(opt *Options, op opRef, n *Node, cfg conv.Config, s conv.Shape, x, w, b, y *tensor.Tensor) (bool, error) {
	if x.DataType() != tensor.Float || !conv.Few(s) {
		return false, nil
	}
	p := n.packedInput(1, w)
	if p == nil || p.f32 == nil || p.f32.N() != s.M || p.f32.K() != s.C*s.Kernel[0] {
		return false, nil
	}
	xv, yv := elems[float32](x), elems[float32](y)
	var bv []float32
	if b != nil {
		bv = elems[float32](b)
	}
	return true, convErr(op, conv.ForwardFew(cfg, s, xv, p.f32, bv, yv))
}
