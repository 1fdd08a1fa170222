package ops

import (
	"slices"
	"sync/atomic"

	"github.com/onnxshape/onnxshape/ops/internal/conv"
	"github.com/onnxshape/onnxshape/tensor"
)

// The inverted residual block (MobileNetV2/V3): a 1x1 Conv that expands
// the channels, a depthwise Conv, and a 1x1 Conv that projects them back,
// each with what it fused (a folded BatchNormalization, a bias, an
// activation; the projection a residual Add), each value between them
// read by the next alone. FuseBlock makes the projection run the three (a
// run that fuses passes it the block's input through the other two), and
// conv.Block32 runs them band of output rows by band, so that the
// expanded tensor never leaves the cache: the same bits as the three
// Convs one after the other.

// convBlock is what a projection fused: the expansion and the depthwise
// nodes, their constant weights and biases (before any fold), and the
// geometry of the last run.
type convBlock struct {
	expand, dw     *Node
	wE, bE, wD, bD *tensor.Tensor
	geo            atomic.Pointer[blockGeometry]
}

// blockGeometry is the three convolutions of a block on an input shape.
type blockGeometry struct {
	xs, wps []int
	e, d, p conv.Shape
	shape   []int // the output's
}

// FuseBlock makes project, a Conv, run the block expand -> dw -> project
// (Conv nodes whose constant float32 weights and biases are wE, bE, wD and
// bD, the biases nil where absent, and wP project's constant weights) in
// runs that fuse; expand and dw then pass their input through. It reports
// whether they fused: only for 1x1 expand and project Convs of one group
// (stride 1, no pads) around a depthwise one of two spatial axes; not when
// one of them fused a Pad, a gate or (but project) a residual, nor twice.
// The shapes of a run decide the rest (conv.BlockFits).
func FuseBlock(expand, dw, project *Node, wE, bE, wD, bD, wP *tensor.Tensor) bool {
	for _, n := range []*Node{expand, dw, project} {
		if n == nil || n.OpType != "Conv" || n.Domain != "" {
			return false
		}
		if f := n.fusion; f != nil && (f.pads != nil || f.gate != nil || f.block != nil || (n != project && f.residual != nil)) {
			return false
		}
	}
	for _, t := range []*tensor.Tensor{wE, bE, wD, bD} {
		if t != nil && t.DataType() != tensor.Float {
			return false
		}
	}
	if wE == nil || wD == nil || wP == nil || wP.DataType() != tensor.Float {
		return false
	}
	oneByOne := func(n *Node, w *tensor.Tensor) bool {
		s := w.Shape()
		g, err := n.Int("group", 1)
		return len(s) == 4 && s[2] == 1 && s[3] == 1 && err == nil && g == 1 && pointwiseAttrs(n)
	}
	ws := wD.Shape()
	if !oneByOne(expand, wE) || !oneByOne(project, wP) || len(ws) != 4 || ws[0] != wE.Shape()[0] || ws[1] != 1 || wP.Shape()[1] != ws[0] {
		return false
	}
	if g, err := dw.Int("group", 1); err != nil || g != int64(ws[0]) {
		return false
	}
	if project.fusion == nil {
		project.fusion = &nodeFusion{}
	}
	project.fusion.block = &convBlock{expand: expand, dw: dw, wE: wE, bE: bE, wD: wD, bD: bD}
	if expand.fusion != nil {
		expand.fusion.inBlock = true
	}
	return true
}

// fusedBlock is the block n runs in a run that fuses (nil: none).
func (n *Node) fusedBlock(opt *Options) *convBlock {
	if n == nil || n.fusion == nil || n.fusion.block == nil || !opt.fusing() {
		return nil
	}
	return n.fusion.block
}

// geometry returns the block's three convolutions on x (n the projection,
// wp its weights), or nil when conv.Block32 does not run them (then the
// nodes run one after the other).
func (b *convBlock) geometry(n *Node, x, wp *tensor.Tensor) *blockGeometry {
	if g := b.geo.Load(); g != nil && tensor.SameShape(g.xs, x.Shape()) && tensor.SameShape(g.wps, wp.Shape()) {
		return g
	}
	if x.DataType() != tensor.Float || x.Rank() != 4 || wp.DataType() != tensor.Float || wp.Rank() != 4 {
		return nil
	}
	shapeOf := func(n *Node, xs []int, w *tensor.Tensor) (conv.Shape, []int, bool) {
		a, err := readConvAttrs(n, true)
		if err != nil {
			return conv.Shape{}, nil, false
		}
		if a, err = convWeight(n.op(), xs, w.Shape(), a, false); err != nil {
			return conv.Shape{}, nil, false
		}
		m := w.Shape()[0]
		shape, axes, err := convOutputShape(n.op(), xs, m, a)
		if err != nil {
			return conv.Shape{}, nil, false
		}
		return convShape(xs[0], xs[1], m, a.group, axes, false), shape, true
	}
	e, s1, ok := shapeOf(b.expand, x.Shape(), b.wE)
	if !ok {
		return nil
	}
	d, s2, ok := shapeOf(b.dw, s1, b.wD)
	if !ok {
		return nil
	}
	p, s3, ok := shapeOf(n, s2, wp)
	if !ok || !conv.BlockFits(e, d, p) {
		return nil
	}
	g := &blockGeometry{xs: slices.Clone(x.Shape()), wps: slices.Clone(wp.Shape()), e: e, d: d, p: p, shape: s3}
	b.geo.Store(g)
	return g
}

// runBlock runs n's block on x, the block's input, with n's weights w and
// bias b and its fused residual res (nil: none): it returns the
// projection's output y, or, when conv.Block32 does not run the block
// (another type, shapes it does not take, an epilogue it cannot apply in
// blocks), front, the depthwise node's output from the two nodes run as
// their steps would, for n to run on as itself.
func (n *Node) runBlock(opt *Options, blk *convBlock, x, w, b, res *tensor.Tensor) (y, front *tensor.Tensor, err error) {
	opt = opt.orDefault()
	if y, err = n.runBlock32(opt, blk, x, w, b, res); y != nil || err != nil {
		return y, nil, err
	}
	in := func(x, w, b *tensor.Tensor) []tensor.Value {
		if b == nil {
			return values(x, w)
		}
		return values(x, w, b)
	}
	out, err := convNode(opt, blk.expand, in(x, blk.wE, blk.bE))
	if err != nil {
		return nil, nil, err
	}
	t, _ := out[0].(*tensor.Tensor)
	if out, err = convNode(opt, blk.dw, in(t, blk.wD, blk.bD)); err != nil {
		return nil, nil, err
	}
	front, _ = out[0].(*tensor.Tensor)
	return nil, front, nil
}

// runBlock32 is runBlock through conv.Block32; nil, nil when that does not
// run the block.
func (n *Node) runBlock32(opt *Options, blk *convBlock, x, w, b, res *tensor.Tensor) (*tensor.Tensor, error) {
	op := n.op()
	g := blk.geometry(n, x, w)
	if g == nil || (res != nil && (res.DataType() != tensor.Float || !tensor.SameShape(res.Shape(), g.shape))) {
		return nil, nil
	}
	wP, bP := n.foldedConv(opt, w, b)
	stages := []struct {
		n    *Node
		w, b *tensor.Tensor
		m    int
	}{{blk.expand, nil, nil, g.e.M}, {blk.dw, nil, nil, g.d.M}, {n, wP, bP, g.p.M}}
	stages[0].w, stages[0].b = blk.expand.foldedConv(opt, blk.wE, blk.bE)
	stages[1].w, stages[1].b = blk.dw.foldedConv(opt, blk.wD, blk.bD)
	var st [3]conv.BlockStage
	for k, s := range stages {
		if s.w.DataType() != tensor.Float || convBias(s.n.op(), s.b, tensor.Float, s.m) != nil {
			return nil, nil
		}
		p := s.n.packedInput(1, s.w)
		if p != nil && p.packedOnly {
			// Its folded weights are kept only packed (never for a
			// block's, packConvW): the nodes run one by one.
			return nil, nil
		}
		st[k].W, st[k].B = blockFloats(s.w), blockFloats(s.b)
		if p != nil {
			st[k].Cfg.WeightsT = p.at32
		}
	}
	// The stages' activations, each with an account of its own (the
	// projection's is the run's, convCall's).
	for k := range 2 {
		a := opt.stageAccount(k, stages[k].n.op())
		defer a.release()
		done, _, err := stages[k].n.convEpilogue(opt, tensor.Float, &st[k].Cfg, a, nil, nil)
		if err != nil {
			return nil, err
		}
		if !done {
			return nil, nil
		}
	}
	y, err := opt.bandsOutput(op, g.shape, "the block's bands", conv.BlockScratchBytes(g.d, opt.threads()))
	if err != nil {
		return nil, err
	}
	cfg, acct := opt.convCall(op, "the block's bands")
	defer acct.release()
	done, missed, err := n.convEpilogue(opt, tensor.Float, &st[2].Cfg, acct, y, res)
	if err != nil {
		return nil, err
	}
	if !done {
		return nil, nil
	}
	if err := convErr(op, conv.Block32(cfg, g.e, g.d, g.p, elems[float32](x), st, elems[float32](y))); err != nil {
		return nil, err
	}
	if missed != nil && missed.Load() {
		return nil, op.errorf("internal", "the epilogue saw a block outside the output")
	}
	return y, nil
}

// bandsOutput checks the float32 output of a fused run by bands against
// the size cap, refuses it when its bands' scratch would pass the run's
// cap, and makes it (every element written by the bands).
func (o *Options) bandsOutput(op opRef, shape []int, what string, scratch int64) (*tensor.Tensor, error) {
	if err := o.checkSize(op, tensor.Float, shape); err != nil {
		return nil, err
	}
	if err := o.refuseScratch(op, what, scratch); err != nil {
		return nil, err
	}
	return o.newOverwritten(op, tensor.Float, shape)
}

// stageAccount is the account of stage k (0 the expansion, 1 the
// depthwise) of a block's epilogue: under the model runner one the run's
// Options keeps for the blocks it runs one after another, as convCall
// keeps the projection's (a new one, and its bound epilogue, at every
// block were four allocations a block and run).
func (o *Options) stageAccount(k int, op opRef) *convAccount {
	const what = "the block's bands"
	if o.env.Headers != nil {
		a := o.blockStages[k]
		if a == nil || a.o != o { // a copy of a run's Options makes its own
			a = &convAccount{o: o}
			a.charge = a.chargeScratch
			o.blockStages[k] = a
		}
		a.op, a.what = op, what
		return a
	}
	return &convAccount{o: o, op: op, what: what}
}

// blockFloats is t's float32 elements, nil for nil.
func blockFloats(t *tensor.Tensor) []float32 {
	if t == nil {
		return nil
	}
	return elems[float32](t)
}

// The front of a squeeze-and-excitation block (EfficientNet): the 1x1
// expansion and the depthwise Conv after it, each with what it fused (a
// gate x*Sigmoid(x) among them), the depthwise output read by the
// excitation's pool and by its Mul, so that the projection cannot run
// the three. FuseFront makes the expansion run the depthwise Conv too,
// conv.Front32 (by bands, the expanded tensor never whole, where the
// plane is large enough for that to pay; else the expanded tensor in
// scratch rather than a value of the run), and the graph passes
// the expansion's output, now the depthwise one, through the depthwise
// Conv's step.

// convFront is what an expansion fused: the depthwise node, its constant
// weights and bias (before any fold), and the geometry of the last run.
type convFront struct {
	dw     *Node
	wD, bD *tensor.Tensor
	geo    atomic.Pointer[frontGeometry]
}

// frontGeometry is the two convolutions of a front on an input shape.
type frontGeometry struct {
	xs, ws []int
	e, d   conv.Shape
	shape  []int // the depthwise output's
	fits   bool
}

// FuseFront makes expand, a 1x1 Conv of one group with constant float32
// weights wE, run dw, a depthwise Conv over its output with constant
// float32 weights wD and bias bD (nil: none), in runs that fuse: expand's
// output is then dw's. It reports whether they fused: not when either
// fused a Pad, a block, a front or a quantized chain, nor a residual.
func FuseFront(expand, dw *Node, wE, wD, bD *tensor.Tensor) bool {
	for _, n := range []*Node{expand, dw} {
		if n == nil || n.OpType != "Conv" || n.Domain != "" {
			return false
		}
		if f := n.fusion; f != nil && (f.pads != nil || f.block != nil || f.front != nil || f.qdq != nil || f.residual != nil || f.scaled != nil) {
			return false
		}
	}
	for _, t := range []*tensor.Tensor{wE, wD, bD} {
		if t != nil && t.DataType() != tensor.Float {
			return false
		}
	}
	if wE == nil || wD == nil {
		return false
	}
	se, sd := wE.Shape(), wD.Shape()
	g, err := expand.Int("group", 1)
	if len(se) != 4 || se[2] != 1 || se[3] != 1 || err != nil || g != 1 || !pointwiseAttrs(expand) {
		return false
	}
	if len(sd) != 4 || sd[0] != se[0] || sd[1] != 1 {
		return false
	}
	if g, err := dw.Int("group", 1); err != nil || g != int64(sd[0]) {
		return false
	}
	if expand.fusion == nil {
		expand.fusion = &nodeFusion{}
	}
	expand.fusion.front = &convFront{dw: dw, wD: wD, bD: bD}
	return true
}

// fusedFront is the front n runs in a run that fuses (nil: none).
func (n *Node) fusedFront(opt *Options) *convFront {
	if n == nil || n.fusion == nil || n.fusion.front == nil || !opt.fusing() {
		return nil
	}
	return n.fusion.front
}

// geometry returns the front's two convolutions on x (n the expansion, w
// its weights); fits reports whether conv.Front32 runs them.
func (f *convFront) geometry(n *Node, x, w *tensor.Tensor) *frontGeometry {
	if g := f.geo.Load(); g != nil && tensor.SameShape(g.xs, x.Shape()) && tensor.SameShape(g.ws, w.Shape()) {
		return g
	}
	g := &frontGeometry{xs: slices.Clone(x.Shape()), ws: slices.Clone(w.Shape())}
	if x.DataType() == tensor.Float && x.Rank() == 4 && w.DataType() == tensor.Float && w.Rank() == 4 {
		shapeOf := func(n *Node, xs []int, w *tensor.Tensor) (conv.Shape, []int, bool) {
			a, err := readConvAttrs(n, true)
			if err != nil {
				return conv.Shape{}, nil, false
			}
			if a, err = convWeight(n.op(), xs, w.Shape(), a, false); err != nil {
				return conv.Shape{}, nil, false
			}
			m := w.Shape()[0]
			shape, axes, err := convOutputShape(n.op(), xs, m, a)
			if err != nil {
				return conv.Shape{}, nil, false
			}
			return convShape(xs[0], xs[1], m, a.group, axes, false), shape, true
		}
		e, s1, ok1 := shapeOf(n, x.Shape(), w)
		if ok1 {
			d, s2, ok2 := shapeOf(f.dw, s1, f.wD)
			g.e, g.d, g.shape, g.fits = e, d, s2, ok2 && conv.FrontFits(e, d)
		}
	}
	f.geo.Store(g)
	return g
}

// runFront runs n, an expansion with x, w and b its input, weights and
// bias, and the depthwise Conv f after it: conv.Front32 when it takes the
// shapes, else the two nodes one after the other.
func (n *Node) runFront(opt *Options, f *convFront, x, w, b *tensor.Tensor, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	if d, err := n.runFront32(opt, f, x, w, b); d != nil || err != nil {
		if err != nil {
			return nil, err
		}
		return opt.result(d), nil
	}
	out, err := n.convTail(opt, x, w, b, in)
	if err != nil {
		return nil, err
	}
	t, _ := out[0].(*tensor.Tensor)
	din := values(t, f.wD)
	if f.bD != nil {
		din = values(t, f.wD, f.bD)
	}
	return convNode(opt, f.dw, din)
}

// runFront32 is runFront through conv.Front32; nil, nil when that does
// not run the front.
func (n *Node) runFront32(opt *Options, f *convFront, x, w, b *tensor.Tensor) (*tensor.Tensor, error) {
	g := f.geometry(n, x, w)
	if !g.fits {
		return nil, nil
	}
	op := f.dw.op()
	stages := []struct {
		n    *Node
		w, b *tensor.Tensor
		m    int
	}{{n, nil, nil, g.e.M}, {f.dw, nil, nil, g.d.M}}
	stages[0].w, stages[0].b = n.foldedConv(opt, w, b)
	stages[1].w, stages[1].b = f.dw.foldedConv(opt, f.wD, f.bD)
	var st [2]conv.BlockStage
	for k, s := range stages {
		if s.w.DataType() != tensor.Float || convBias(s.n.op(), s.b, tensor.Float, s.m) != nil {
			return nil, nil
		}
		p := s.n.packedInput(1, s.w)
		if p != nil && p.packedOnly {
			// Weights kept only packed (never a front's, packConvW).
			return nil, nil
		}
		st[k].W, st[k].B = blockFloats(s.w), blockFloats(s.b)
		if p != nil {
			st[k].Cfg.WeightsT = p.at32
		}
		a := opt.stageAccount(k, s.n.op())
		defer a.release()
		done, _, err := s.n.convEpilogue(opt, tensor.Float, &st[k].Cfg, a, nil, nil)
		if err != nil {
			return nil, err
		}
		if !done {
			return nil, nil
		}
	}
	d, err := opt.bandsOutput(op, g.shape, "the front's bands", conv.FrontScratchBytes(g.d, opt.threads()))
	if err != nil {
		return nil, err
	}
	cfg, acct := opt.convCall(op, "the front's bands")
	defer acct.release()
	if err := convErr(op, conv.Front32(cfg, g.e, g.d, elems[float32](x), st, elems[float32](d))); err != nil {
		return nil, err
	}
	return d, nil
}
