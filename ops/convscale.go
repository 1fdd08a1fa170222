package ops

import (
	"slices"
	"sync/atomic"

	"github.com/onnxshape/onnxshape/ops/internal/conv"
	"github.com/onnxshape/onnxshape/ops/internal/elementwise"
	"github.com/onnxshape/onnxshape/tensor"
)

// The squeeze-and-excitation scale and the projection after it
// (EfficientNet, MobileNetV3): a Mul of X, the depthwise convolution's
// output, by S, the excitation's per-channel scale (N x C x 1 x 1), read
// by a 1x1 Conv alone. FuseScaledProjection makes the Mul run the Conv on
// X*S (conv.ScaledPointwise32: band by band, the scaled band in the cache,
// never X*S whole; the same bits), and the graph then passes the Conv's
// output through the Conv's own step.

// scaledProjection is what a Mul fused: the projection Conv, its constant
// weights and bias (nil: none).
type scaledProjection struct {
	project *Node
	w, b    *tensor.Tensor
	geo     atomic.Pointer[scaledGeometry]
}

// scaledGeometry is the projection on an input shape: its convolution and
// output shape.
type scaledGeometry struct {
	xs    []int
	ps    conv.Shape
	shape []int
}

// geometry returns the projection on X of shape xs, or nil when
// conv.ScaledPointwise32 does not run it.
func (sp *scaledProjection) geometry(xs []int) *scaledGeometry {
	if g := sp.geo.Load(); g != nil && tensor.SameShape(g.xs, xs) {
		return g
	}
	n := sp.project
	op := n.op()
	ca, err := readConvAttrs(n, true)
	if err != nil {
		return nil
	}
	if ca, err = convWeight(op, xs, sp.w.Shape(), ca, false); err != nil {
		return nil
	}
	m := sp.w.Shape()[0]
	shape, axes, err := convOutputShape(op, xs, m, ca)
	if err != nil {
		return nil
	}
	g := &scaledGeometry{xs: slices.Clone(xs), ps: convShape(xs[0], xs[1], m, ca.group, axes, false), shape: shape}
	if !conv.ScaledFits(g.ps) {
		return nil
	}
	sp.geo.Store(g)
	return g
}

// mulF32 is Mul's float32 loops (mul.go), for the scale applied in bands.
var mulF32 = elementwise.Vectorized("Mul", mulSpans[float32]())

// FuseScaledProjection makes mul, a Mul of X and S (in either order), run project,
// a Conv reading mul's output alone with constant float32 weights w and
// bias b (nil: none), in runs that fuse: the Mul's output is then the
// Conv's, which the graph passes on through the Conv's step (and the Conv's
// residual, when it fused one, follows the Mul's inputs as it followed the
// Conv's). It reports whether they fused: only for a 1x1 Conv of one group
// with no Pad, gate or block fused. The shapes of a run decide the rest:
// otherwise the Mul runs, then the Conv on its output.
func FuseScaledProjection(mul, project *Node, w, b *tensor.Tensor) bool {
	if mul == nil || project == nil || mul.OpType != "Mul" || mul.Domain != "" || project.OpType != "Conv" || project.Domain != "" {
		return false
	}
	if mul.fusion != nil {
		return false
	}
	if f := project.fusion; f != nil && (f.pads != nil || f.gate != nil || f.block != nil || f.qdq != nil) {
		return false
	}
	if w == nil || w.DataType() != tensor.Float || (b != nil && b.DataType() != tensor.Float) {
		return false
	}
	s := w.Shape()
	g, err := project.Int("group", 1)
	if len(s) != 4 || s[2] != 1 || s[3] != 1 || err != nil || g != 1 || !pointwiseAttrs(project) {
		return false
	}
	mul.fusion = &nodeFusion{scaled: &scaledProjection{project: project, w: w, b: b}}
	if project.fusion != nil {
		project.fusion.inBlock = true
	}
	return true
}

// mulNode is Mul's kernel: a Mul that fused its projection runs it.
func mulNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	if f := n.fusion; f != nil && f.scaled != nil && opt.fusing() {
		return n.runScaledProjection(opt, f.scaled, in)
	}
	return mulOp.node(opt, n, in)
}

// runScaledProjection runs the Mul n and the projection sp fused into it:
// through conv.ScaledPointwise32 when the shapes allow, else the Mul and
// then the Conv.
func (n *Node) runScaledProjection(opt *Options, sp *scaledProjection, in []tensor.Value) ([]tensor.Value, error) {
	opt = opt.orDefault()
	a, err := n.requiredInput(in, 0, "A")
	if err != nil {
		return nil, err
	}
	b, err := n.requiredInput(in, 1, "B")
	if err != nil {
		return nil, err
	}
	var res *tensor.Tensor
	if len(in) > ResidualInput {
		res, _ = in[ResidualInput].(*tensor.Tensor)
	}
	if y, err := sp.run32(opt, a, b, res); y != nil || err != nil {
		return opt.result(y), err
	}
	xs, err := mulOp.apply(opt, n, a, b)
	if err != nil {
		return nil, err
	}
	cin := values(xs, sp.w)
	if sp.b != nil {
		cin = values(xs, sp.w, sp.b)
	}
	if res != nil {
		for len(cin) < ResidualInput {
			cin = append(cin, nil)
		}
		cin = append(cin, res)
	}
	return convNode(opt, sp.project, cin)
}

// run32 is the fused Mul of a and b and projection through
// conv.ScaledPointwise32; nil, nil when that does not run them.
func (sp *scaledProjection) run32(opt *Options, a, b, res *tensor.Tensor) (*tensor.Tensor, error) {
	n := sp.project
	op := n.op()
	if a.DataType() != tensor.Float || b.DataType() != tensor.Float || a.Rank() != 4 || b.Rank() != 4 {
		return nil, nil
	}
	// X is N x C x H x W and S is N x C x 1 x 1, either first.
	xFirst := true
	x, s := a, b
	if scaleOf(a, b) {
		xFirst, x, s = false, b, a
	} else if !scaleOf(b, a) {
		return nil, nil
	}
	g := sp.geometry(x.Shape())
	if g == nil {
		return nil, nil
	}
	ps, shape, m := g.ps, g.shape, g.ps.M
	if res != nil && (res.DataType() != tensor.Float || !tensor.SameShape(res.Shape(), shape)) {
		return nil, nil
	}
	w, bias := n.foldedConv(opt, sp.w, sp.b)
	if w.DataType() != tensor.Float || convBias(op, bias, tensor.Float, m) != nil {
		return nil, nil
	}
	p := n.packedInput(1, w)
	if p != nil && p.packedOnly {
		// Weights kept only packed (never a scaled projection's).
		return nil, nil
	}
	st := conv.BlockStage{W: blockFloats(w), B: blockFloats(bias)}
	if p != nil {
		st.Cfg.WeightsT = p.at32
	}
	if err := opt.checkSize(op, tensor.Float, shape); err != nil {
		return nil, err
	}
	if err := opt.refuseScratch(op, "the scaled bands", conv.ScaledScratchBytes(ps, opt.threads())); err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, tensor.Float, shape)
	if err != nil {
		return nil, err
	}
	cfg, acct := opt.convCall(op, "the scaled bands")
	defer acct.release()
	done, missed, err := n.convEpilogue(opt, tensor.Float, &st.Cfg, acct, y, res)
	if err != nil {
		return nil, err
	}
	if !done {
		return nil, nil
	}
	scale := func(o, a []float32, s float32) { mulF32.Right(o, a, s) }
	if !xFirst {
		scale = func(o, a []float32, s float32) { mulF32.Left(o, s, a) }
	}
	if err := convErr(op, conv.ScaledPointwise32(cfg, ps, elems[float32](x), elems[float32](s), scale, st, elems[float32](y))); err != nil {
		return nil, err
	}
	if missed != nil && missed.Load() {
		return nil, op.errorf("internal", "the epilogue saw a block outside the output")
	}
	return y, nil
}

// scaleOf reports whether s is a per-channel scale of x: x N x C x H x W,
// s N x C x 1 x 1.
func scaleOf(s, x *tensor.Tensor) bool {
	ss, xs := s.Shape(), x.Shape()
	return len(ss) == 4 && len(xs) == 4 && ss[0] == xs[0] && ss[1] == xs[1] && ss[2] == 1 && ss[3] == 1
}
