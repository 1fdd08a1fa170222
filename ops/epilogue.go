package ops

// Load-time fusion, the kernels' side. The model runner (graph/fuse.go)
// decides, once at load, which pairs of nodes fuse; here a producer node
// keeps what it fused and applies it when a run asks for it
// (runenv.Env.Fuse: the fast engine under the ONNX profile, never the
// reference engine nor SONNX):
//
//   - FoldBatchNorm: a Conv with constant weights followed by an
//     inference-mode BatchNormalization with constant statistics runs
//     with the statistics folded into its weights and bias (a = scale /
//     sqrt(var + epsilon) per output channel, W' = W*a, B' = (B -
//     mean)*a + bias, in float64 rounded once). This changes the rounding:
//     each output element lies within 2*(k+8)*eps*(k*M + B) + 4*eps*|y|
//     of the reference engine's unfused pair y, k the terms of an output
//     (C/group times the taps), M max|X| times the largest |W'|, B the
//     largest |B'| (bounded by |bias| + (|mean| + |B|)*a), eps the unit
//     roundoff of float or double: reference.Agree's Conv bound for W' and
//     B' plus the rounding of W' and of the BatchNormalization's affine map
//     (tested on random models, graph/fuse_test.go).
//   - FoldBias: a Conv with constant weights, or a Gemm with a constant B
//     (and C, if any), followed by an Add of a constant that broadcasts
//     along the output channels (Conv: 1 everywhere but axis 1, which
//     holds M or 1) or along the last axis (Gemm: N or 1 values), runs
//     with the constant added into its bias (Conv's B, Gemm's C with
//     beta*C folded in and beta 1), in float64 rounded once. This changes
//     the rounding: the fused y' = fl(S + fl(B + c)) and the unfused y =
//     fl(fl(S + B) + c), S the sum of products, B the bias (beta*C), c the
//     constant, lie within eps*(4|y| + 2|B| + 3|c|) of each other to first
//     order in eps, the unit roundoff (each within eps*(|S+B+c| +
//     |S+B| or |B+c|) of the exact sum; tested on random models,
//     graph/fuse_test.go). The Add step then passes the producer's output
//     through.
//   - FoldBias for a MatMul with a constant 2-D B, followed by an Add of
//     a constant of N or 1 values (rank at most 1): the product adds the
//     constant in place before any activation, exactly as the Add would
//     (the same bits as the pair unfused).
//   - FuseResidual: a Conv followed by an Add of its output and another
//     computed value R (a residual block's shortcut), R computed before
//     the Conv runs: the run passes R to the Conv after its own inputs,
//     and the Conv adds it to each finished block of its output (sums,
//     bias, any folded BatchNormalization complete) before any fused
//     activation, while the block is in the cache: the same bits as the
//     pair unfused. When R is not of the output's type and shape (the Add
//     would broadcast) or the output is not float or double, the Conv runs
//     the Add's own kernel on its whole output instead.
//   - FuseGatedActivation (gatedepilogue.go): a Sigmoid or HardSigmoid of
//     a Conv's float32 output X and the Mul of X by it run as the Conv's
//     epilogue X*act(X), block by block: the same bits as the nodes
//     unfused.
//   - FuseActivation: Relu, LeakyRelu, Sigmoid, HardSigmoid, HardSwish or
//     Clip after a Conv, Gemm or MatMul runs as the producer's epilogue:
//     the activation's own kernel, applied in place on the producer's
//     output (for Conv, on each block as it is finished, while it is in
//     the cache). The bits are those of the unfused pair.
//
// The folded copies belong to the model (graph counts them with its packed
// weights); a run charges nothing for them.

import (
	"fmt"
	"math"
	"sync/atomic"
	"unsafe"

	"github.com/onnxshape/onnxshape/ops/internal/conv"
	"github.com/onnxshape/onnxshape/ops/internal/elementwise"
	"github.com/onnxshape/onnxshape/tensor"
)

// nodeFusion is what a producer node fused at load.
type nodeFusion struct {
	// w and b are a Conv's weights and bias with a BatchNormalization
	// folded in (nil: none folded).
	w, b *tensor.Tensor
	// c is a Gemm's beta*C with an Add's constant folded in, run with
	// beta 1 (nil: none folded).
	c *tensor.Tensor
	// bias is a MatMul's constant Add (N or 1 values, rank at most 1),
	// added in place to the product before the activation (nil: none).
	bias *tensor.Tensor
	// residual is the Add (FuseResidual) whose other input, a computed
	// value the run passes to the Conv after its own inputs, the Conv adds
	// to its finished output before the activation (nil: none).
	residual *Node
	// act is the activation run as the epilogue (nil: none), and actIn
	// its inputs after X (Clip's min and max, constants; nil where absent).
	act   *Node
	actIn []*tensor.Tensor
	// gate, when act is a gate (FuseGatedActivation), is the epilogue
	// X*act(X), for float32 outputs only.
	gate unarySpan[float32, float32]
	// pads are a Conv's pads with those of the zero Pad before it added
	// (FusePad, padfold.go), used in place of its own (nil: none fused).
	pads []int
	// qdq is a Conv's quantized chain run as one int8 convolution
	// (FuseQDQ, qdqconv.go; nil: none).
	qdq *qdqConv
	// qdqAdd is an Add's quantized chain run as one int8 addition
	// (FuseQDQAdd, qdqadd.go; nil: none).
	qdqAdd *qdqAdd
	// qdqPool says a MaxPool runs on its DequantizeLinear's 8-bit input
	// (FuseQDQPool, qdqpool.go).
	qdqPool bool
	// block is the inverted residual block a projection runs (FuseBlock,
	// convblock.go; nil: none).
	block *convBlock
	// inBlock marks a Conv whose folded weights a fused kernel reads in
	// place, which it therefore keeps (packConvW, PackConstants): a
	// block's expansion (FuseBlock), a scaled projection
	// (FuseScaledProjection).
	inBlock bool
	// front is the depthwise Conv an expansion runs after itself
	// (FuseFront, convblock.go; nil: none).
	front *convFront
	// scaled is the projection Conv a squeeze-and-excitation Mul runs on
	// its product (FuseScaledProjection, convscale.go; nil: none).
	scaled *scaledProjection
}

// fusing reports whether the run asks the kernels to apply what their
// nodes fused.
func (o *Options) fusing() bool {
	o = o.orDefault()
	return o.env.Fuse && o.Profile == ProfileONNX
}

// FoldBatchNorm folds bn, a BatchNormalization in inference mode with the
// constant inputs params (scale, B, input_mean, input_var), into c, a Conv
// whose weight w and bias b (nil: none) are constants. It returns the bytes
// of the folded weights and bias, which charge is told first, and 0 with no
// error when the pair does not fold (not float or double, shapes off,
// training mode, a refused charge): the graph then keeps both nodes.
func FoldBatchNorm(c, bn *Node, w, b *tensor.Tensor, params [4]*tensor.Tensor, charge func(int64) error) int64 {
	if c == nil || bn == nil || c.OpType != "Conv" || bn.OpType != "BatchNormalization" || c.Domain != "" || bn.Domain != "" || w == nil {
		return 0
	}
	if f := c.fusion; f != nil && (f.w != nil || f.b != nil || f.c != nil || f.bias != nil || f.residual != nil || f.act != nil) {
		// Something fused before it; a folded Pad (f.pads) is no matter.
		return 0
	}
	if bn.Version < 9 || bn.NumOutputs != 1 {
		return 0 // before 9: is_test and spatial decide; more outputs: training
	}
	if mode, err := bn.Int("training_mode", 0); err != nil || mode != 0 {
		return 0
	}
	eps, err := bn.Float("epsilon", 1e-5)
	if err != nil {
		return 0
	}
	dt := w.DataType()
	if (dt != tensor.Float && dt != tensor.Double) || w.Rank() < 3 {
		return 0
	}
	m := w.Shape()[0]
	if b != nil && (b.DataType() != dt || b.Rank() != 1 || b.Shape()[0] != m) {
		return 0
	}
	for _, p := range params {
		if p == nil || p.DataType() != dt || p.Rank() != 1 || p.Shape()[0] != m {
			return 0
		}
	}
	bytes := int64(w.Len()+m) * int64(dt.Size())
	if charge != nil && charge(bytes) != nil {
		return 0
	}
	scale, bias, mean, vr := floats64(params[0]), floats64(params[1]), floats64(params[2]), floats64(params[3])
	var cb []float64
	if b != nil {
		cb = floats64(b)
	}
	wv := floats64(w)
	per := w.Len() / max(m, 1)
	nb := make([]float64, m)
	for i := range m {
		a := scale[i] / math.Sqrt(vr[i]+float64(eps))
		for j := i * per; j < (i+1)*per; j++ {
			wv[j] *= a
		}
		var c0 float64
		if cb != nil {
			c0 = cb[i]
		}
		nb[i] = (c0-mean[i])*a + bias[i]
	}
	if c.fusion == nil {
		c.fusion = &nodeFusion{}
	}
	c.fusion.w, c.fusion.b = fromFloats64(dt, wv, w.Shape()), fromFloats64(dt, nb, []int{m})
	return bytes
}

// FoldBias folds add, an Add one of whose inputs is p's output and the
// other the constant c, into p's bias: p a Conv whose weight w (and bias
// b, nil: none) are constants, or a Gemm whose B (w) and C (b, nil: none)
// are constants. It returns the bytes of the folded bias, which charge is
// told first, and 0 when the pair does not fold (not float or double, c
// not along the channels or the last axis, an activation fused already,
// a refused charge): the graph then keeps both nodes.
func FoldBias(p, add *Node, w, b, c *tensor.Tensor, charge func(int64) error) int64 {
	if p == nil || add == nil || add.OpType != "Add" || p.Domain != "" || add.Domain != "" || w == nil || c == nil {
		return 0
	}
	if p.fusion != nil && (p.fusion.act != nil || p.fusion.c != nil || p.fusion.residual != nil) {
		return 0
	}
	dt := w.DataType()
	if (dt != tensor.Float && dt != tensor.Double) || c.DataType() != dt || (b != nil && b.DataType() != dt) {
		return 0
	}
	switch p.OpType {
	case "Conv":
		return foldConvBias(p, w, b, c, charge)
	case "Gemm":
		return foldGemmBias(p, w, b, c, charge)
	case "MatMul":
		return foldMatMulBias(p, w, c, charge)
	}
	return 0
}

// foldMatMulBias is FoldBias for a MatMul with a constant 2-D B (w): c
// holds N values (B's columns) or 1, with rank at most 1, so that the Add
// broadcasts it along the product's last axis and keeps its shape. The
// product runs as before and then adds c in place, each element once, as
// the Add would: the same bits as the pair unfused, without the Add's
// output and its pass over memory.
func foldMatMulBias(p *Node, w, c *tensor.Tensor, charge func(int64) error) int64 {
	if w.Rank() != 2 || c.Rank() > 1 || (c.Len() != 1 && c.Len() != w.Shape()[1]) {
		return 0
	}
	if p.fusion != nil && p.fusion.bias != nil {
		return 0
	}
	bytes := int64(c.Len()) * int64(c.DataType().Size())
	if charge != nil && charge(bytes) != nil {
		return 0
	}
	if p.fusion == nil {
		p.fusion = &nodeFusion{}
	}
	p.fusion.bias = fromFloats64(c.DataType(), floats64(c), []int{c.Len()})
	return bytes
}

// applyBias adds n's folded bias (a MatMul's, foldMatMulBias), if the run
// fuses one, in place to y, the product n's kernel just made.
func (n *Node) applyBias(opt *Options, y *tensor.Tensor) {
	if n == nil || n.fusion == nil || n.fusion.bias == nil || !opt.fusing() || y.Len() == 0 {
		return
	}
	switch y.DataType() {
	case tensor.Float:
		addRows(elems[float32](y), elems[float32](n.fusion.bias))
	case tensor.Double:
		addRows(elems[float64](y), elems[float64](n.fusion.bias))
	}
}

// addRows adds c (one value, or one per column) to every row of y, by
// Add's vector spans: y + c, one rounding, the Add's bits.
func addRows[T float32 | float64](y, c []T) {
	var add elementwise.BinarySpans[T, T, T]
	switch any(c).(type) {
	case []float32:
		add = any(residualAdds32).(elementwise.BinarySpans[T, T, T])
	case []float64:
		add = any(residualAdds64).(elementwise.BinarySpans[T, T, T])
	}
	if len(c) == 1 {
		add.Right(y, y, c[0])
		return
	}
	for r := 0; r+len(c) <= len(y); r += len(c) {
		row := y[r : r+len(c) : r+len(c)]
		add.Both(row, row, c)
	}
}

// foldConvBias is FoldBias for a Conv: c holds one value, or one per
// output channel on axis 1 of the output (W's rank), 1 on every other
// axis.
func foldConvBias(p *Node, w, b, c *tensor.Tensor, charge func(int64) error) int64 {
	r := w.Rank()
	m := w.Shape()[0]
	if r < 3 || c.Rank() > r {
		return 0
	}
	perChannel := false
	for i, d := range c.Shape() {
		axis := r - c.Rank() + i
		switch {
		case d == 1:
		case axis == 1 && d == m:
			perChannel = true
		default:
			return 0
		}
	}
	if b != nil && (b.Rank() != 1 || b.Shape()[0] != m) {
		return 0
	}
	if p.fusion != nil && p.fusion.b != nil {
		b = p.fusion.b // a BatchNormalization folded already
	}
	bytes := int64(m) * int64(w.DataType().Size())
	if charge != nil && charge(bytes) != nil {
		return 0
	}
	cv := floats64(c)
	nb := make([]float64, m)
	var bv []float64
	if b != nil {
		bv = floats64(b)
	}
	for i := range m {
		v := cv[0]
		if perChannel {
			v = cv[i]
		}
		if bv != nil {
			v += bv[i]
		}
		nb[i] = v
	}
	if p.fusion == nil {
		p.fusion = &nodeFusion{}
	}
	if p.fusion.w == nil {
		p.fusion.w = w
	}
	p.fusion.b = fromFloats64(w.DataType(), nb, []int{m})
	return bytes
}

// foldGemmBias is FoldBias for a Gemm: c holds one value or N (the
// output's last axis, from the constant B), with rank at most 2 and 1 on
// the first axis; C' = beta*C + c, broadcast to the shape of both.
func foldGemmBias(p *Node, w, b, c *tensor.Tensor, charge func(int64) error) int64 {
	if p.Version < 7 || w.Rank() != 2 || c.Rank() > 2 || (b != nil && b.Rank() > 2) {
		return 0 // before 7: the broadcast attribute decides
	}
	tb, err := p.Int("transB", 0)
	if err != nil {
		return 0
	}
	beta, err := p.Float("beta", 1)
	if err != nil {
		return 0
	}
	n := w.Shape()[1]
	if tb != 0 {
		n = w.Shape()[0]
	}
	cs := c.Shape()
	if (len(cs) == 2 && cs[0] != 1) || (len(cs) > 0 && cs[len(cs)-1] != 1 && cs[len(cs)-1] != n) {
		return 0
	}
	// The folded C: rows from b (1 without), columns N or 1.
	rows, cols := 1, 1
	if len(cs) > 0 {
		cols = cs[len(cs)-1]
	}
	var bs []int
	if b != nil {
		bs = b.Shape()
		if len(bs) == 2 {
			rows = bs[0]
		}
		if len(bs) > 0 && bs[len(bs)-1] != 1 {
			if bs[len(bs)-1] != n {
				return 0
			}
			cols = n
		}
	}
	bytes := int64(rows*cols) * int64(w.DataType().Size())
	if charge != nil && charge(bytes) != nil {
		return 0
	}
	cv := floats64(c)
	var bv []float64
	if b != nil {
		bv = floats64(b)
	}
	out := make([]float64, rows*cols)
	for i := range rows {
		for j := range cols {
			v := cv[0]
			if len(cv) > 1 {
				v = cv[j]
			}
			if bv != nil {
				bi, bj := 0, 0
				if len(bs) == 2 && bs[0] != 1 {
					bi = i
				}
				if len(bs) > 0 && bs[len(bs)-1] != 1 {
					bj = j
				}
				bc := 1
				if len(bs) > 0 {
					bc = bs[len(bs)-1]
				}
				v += float64(beta) * bv[bi*bc+bj]
			}
			out[i*cols+j] = v
		}
	}
	shape := []int{rows, cols}
	if b == nil || len(bs) < 2 {
		shape = []int{cols}
	}
	if p.fusion == nil {
		p.fusion = &nodeFusion{}
	}
	p.fusion.c = fromFloats64(w.DataType(), out, shape)
	return bytes
}

// foldedGemm returns the C and beta a Gemm node runs with: the folded C
// and beta 1 when the run fuses and it has them, c and beta otherwise.
func (n *Node) foldedGemm(opt *Options, c *tensor.Tensor, beta float32) (*tensor.Tensor, float32) {
	if n == nil || n.fusion == nil || n.fusion.c == nil || !opt.fusing() {
		return c, beta
	}
	return n.fusion.c, 1
}

// FuseActivation makes act (Relu, LeakyRelu, Sigmoid, HardSigmoid,
// HardSwish or Clip) the epilogue of p (Conv, Gemm or MatMul); consts are
// act's inputs after X, each a constant tensor or nil where absent. It
// reports whether they fused; the graph keeps both nodes when not.
func FuseActivation(p, act *Node, consts []tensor.Value) bool {
	if p == nil || act == nil || p.Domain != "" || act.Domain != "" {
		return false
	}
	switch p.OpType {
	case "Conv", "Gemm", "MatMul":
	default:
		return false
	}
	if p.fusion != nil && p.fusion.act != nil {
		return false
	}
	if _, ok := activations[act.OpType]; !ok {
		return false
	}
	var in []*tensor.Tensor
	for _, v := range consts {
		t, ok := v.(*tensor.Tensor)
		if v != nil && !ok {
			return false
		}
		in = append(in, t)
	}
	if p.fusion == nil {
		p.fusion = &nodeFusion{}
	}
	p.fusion.act, p.fusion.actIn = act, in
	return true
}

// FuseResidual makes add, an Add of p's output and a computed value R,
// part of p's epilogue (p a Conv or a MatMul with no activation fused
// yet): runs that fuse pass R to p as an input after its own (see
// ResidualInput). It reports whether they fused. A Conv adds R block by
// block as its engine stores them (convEpilogue), a MatMul after its
// product and bias (finishMatMul); either before its activation.
func FuseResidual(p, add *Node) bool {
	if p == nil || add == nil || (p.OpType != "Conv" && p.OpType != "MatMul") || add.OpType != "Add" || p.Domain != "" || add.Domain != "" {
		return false
	}
	if p.fusion != nil && (p.fusion.act != nil || p.fusion.residual != nil) {
		return false
	}
	if p.fusion == nil {
		p.fusion = &nodeFusion{}
	}
	p.fusion.residual = add
	return true
}

// ResidualInput is the position in a Conv's or MatMul's inputs at which a
// run that fuses passes the residual (FuseResidual): after X, W and B (a
// MatMul's third place empty).
const ResidualInput = 3

// residualIn returns the residual a run passes to n, nil when n fused
// none or the run does not fuse.
func (n *Node) residualIn(opt *Options, in []tensor.Value) *tensor.Tensor {
	if n == nil || n.fusion == nil || n.fusion.residual == nil || !opt.fusing() || len(in) <= ResidualInput {
		return nil
	}
	t, _ := in[ResidualInput].(*tensor.Tensor)
	return t
}

// addResidual runs the fused Add's own kernel on y and r, in the Add's
// order of inputs, for a residual the Conv cannot add block by block.
func (n *Node) addResidual(opt *Options, y, r *tensor.Tensor) (*tensor.Tensor, error) {
	add := n.fusion.residual
	s, err := Lookup("", "Add", add.Version)
	if err == nil {
		var out []tensor.Value
		if out, err = s.Run(opt, add, values(y, r)); err == nil {
			if t, ok := out[0].(*tensor.Tensor); ok {
				return t, nil
			}
			err = fmt.Errorf("no tensor output")
		}
	}
	return nil, fmt.Errorf("fused %s %q: %w", add.OpType, add.Name, err)
}

// activations are the operators FuseActivation takes, each by its unary
// operator (Clip's is made per type from its bounds).
var activations = map[string]*unaryOp{
	"Relu": reluOp, "LeakyRelu": leakyReluOp, "Sigmoid": sigmoidOp, "HardSigmoid": hardSigmoidOp,
	"HardSwish": hardSwishOp, "Clip": nil,
}

// epilogueKernel returns the kernel of n's fused activation for outputs of
// type dt, checked as the activation's node would check its input; nil
// when the run does not fuse or n fused no activation.
func (n *Node) epilogueKernel(opt *Options, dt tensor.DataType) (unaryKernel, error) {
	if n == nil || n.fusion == nil || n.fusion.act == nil || !opt.fusing() {
		return nil, nil
	}
	act := n.fusion.act
	op := act.op()
	if n.fusion.gate != nil {
		if !GatedFloat32(dt) {
			return nil, nil // the graph runs the gate's nodes
		}
		return n.fusion.gate, nil
	}
	k, err := func() (unaryKernel, error) {
		if act.OpType != "Clip" {
			u := activations[act.OpType]
			if err := u.types.check(op, "X", dt); err != nil {
				return nil, err
			}
			return u.kernel(act, dt)
		}
		if err := clipTypes.check(op, "input", dt); err != nil {
			return nil, err
		}
		var lo, hi *tensor.Tensor
		if len(n.fusion.actIn) > 0 {
			lo = n.fusion.actIn[0]
		}
		if len(n.fusion.actIn) > 1 {
			hi = n.fusion.actIn[1]
		}
		for _, b := range []*tensor.Tensor{lo, hi} {
			if b != nil && (b.DataType() != dt || b.Len() != 1) {
				return nil, op.errorf("bounds", "min and max are scalars of the input's type %v, got %v of shape %v", dt, b.DataType(), b.Shape())
			}
		}
		return clipKernel(act, dt, lo, hi)
	}()
	if err != nil {
		return nil, fmt.Errorf("fused %s %q: %w", act.OpType, act.Name, err)
	}
	if s, ok := k.(elementwise.StreamedUnary); ok {
		return s.Plain, nil // an epilogue's blocks are in the cache
	}
	return k, nil
}

// convClamp returns the bounds of n's fused activation when its float32
// kernel is package clamp's rule (Relu: [0, +Inf], x < 0 giving 0 and
// NaN and -0 kept; Clip: its bounds), for a convolution to apply in its
// products' kernels (conv.Config.Clamp32); false for any other activation.
func (n *Node) convClamp() ([2]float32, bool) {
	act := n.fusion.act
	switch act.OpType {
	case "Relu":
		return [2]float32{0, float32(math.Inf(1))}, true
	case "Clip":
		var lo, hi *tensor.Tensor
		if len(n.fusion.actIn) > 0 {
			lo = n.fusion.actIn[0]
		}
		if len(n.fusion.actIn) > 1 {
			hi = n.fusion.actIn[1]
		}
		lo, hi, err := clipBounds(act, tensor.Float, lo, hi)
		if err != nil {
			return [2]float32{}, false
		}
		l, h := clipBounds32(lo, hi)
		return [2]float32{l, h}, true
	}
	return [2]float32{}, false
}

// applyEpilogue runs n's fused activation, if the run fuses one, in place
// on y, the output n's kernel just made.
func (n *Node) applyEpilogue(opt *Options, y *tensor.Tensor) error {
	k, err := n.epilogueKernel(opt, y.DataType())
	if err != nil || k == nil {
		return err
	}
	if err := k.Run(opt.orDefault().elementwise(), y, y); err != nil {
		return n.fusion.act.op().wrap("cancelled", err, "run stopped")
	}
	return nil
}

// convEpilogue sets cfg's epilogue to n's fused residual Add (res, of y's
// type and shape, or nil) and activation for a float or double output y,
// in a's block epilogue (the call's account, convCall); it reports false
// when the activation must run on the whole output afterwards instead
// (other types: Conv computes them in float32 and rounds after, where the
// activation must see the rounded values). The epilogue finds a block's
// place in y from its address; *missed is set when a block lies outside y
// (which the engine never does: its blocks are y's).
func (n *Node) convEpilogue(opt *Options, dt tensor.DataType, cfg *conv.Config, a *convAccount, y, res *tensor.Tensor) (done bool, missed *atomic.Bool, err error) {
	k, err := n.epilogueKernel(opt, dt)
	if err != nil {
		return false, nil, err
	}
	if k == nil && res == nil {
		return true, nil, nil
	}
	switch dt {
	case tensor.Float:
		act, ok := k.(unarySpan[float32, float32])
		if k != nil && !ok {
			return false, nil, nil
		}
		cfg.Epilogue32 = a.epi32.set(y, res, act)
		if res == nil && act != nil {
			if c, ok := n.convClamp(); ok {
				a.clamp = c
				cfg.Clamp32 = &a.clamp
			}
		}
		return true, &a.epi32.missed, nil
	case tensor.Double:
		act, ok := k.(unarySpan[float64, float64])
		if k != nil && !ok {
			return false, nil, nil
		}
		cfg.Epilogue64 = a.epi64.set(y, res, act)
		return true, &a.epi64.missed, nil
	}
	return false, nil, nil
}

// blockEpilogue is the epilogue of a block of y: the residual's elements
// at the block's place in y added (when res is not nil), then act (when
// not nil). One serves the calls of a convAccount one after another.
type blockEpilogue[T float32 | float64] struct {
	yv, rv []T
	act    unarySpan[T, T]
	missed atomic.Bool
	fn     func([]T) // e.run, bound once
}

// set points e at y, res and act, clears missed and returns the function
// the engine calls on each block.
func (e *blockEpilogue[T]) set(y, res *tensor.Tensor, act unarySpan[T, T]) func([]T) {
	e.yv, e.rv, e.act = nil, nil, act
	if res != nil {
		e.yv, e.rv = elems[T](y), elems[T](res)
	}
	e.missed.Store(false)
	if e.fn == nil {
		e.fn = e.run
	}
	return e.fn
}

func (e *blockEpilogue[T]) run(blk []T) {
	if len(blk) == 0 {
		return
	}
	if rv, yv := e.rv, e.yv; rv != nil {
		var z T
		off := int((uintptr(unsafe.Pointer(&blk[0])) - uintptr(unsafe.Pointer(unsafe.SliceData(yv)))) / unsafe.Sizeof(z))
		if uintptr(unsafe.Pointer(&blk[0])) < uintptr(unsafe.Pointer(unsafe.SliceData(yv))) || off+len(blk) > len(yv) {
			e.missed.Store(true)
			return
		}
		addResidualBlock(blk, rv[off:off+len(blk)])
	}
	if e.act != nil {
		e.act(blk, blk)
	}
}

// residualAdds are Add's own vector spans, for the residual a Conv adds
// block by block: blk[i] + r[i], one rounding, the Add's bits.
var (
	residualAdds32 = elementwise.Vectorized("Add", addSpans[float32]())
	residualAdds64 = elementwise.Vectorized("Add", addSpans[float64]())
	residualAdd32  = residualAdds32.Both
	residualAdd64  = residualAdds64.Both
)

// addResidualBlock adds r to blk in place.
func addResidualBlock[T float32 | float64](blk, r []T) {
	switch b := any(blk).(type) {
	case []float32:
		residualAdd32(b, b, any(r).([]float32))
	case []float64:
		residualAdd64(b, b, any(r).([]float64))
	}
}

// readsInPlace reports a Conv whose folded weights a fused kernel reads in
// place (a block, a front, a scaled projection): they stay unpacked.
func (f *nodeFusion) readsInPlace() bool {
	return f != nil && (f.inBlock || f.block != nil || f.front != nil)
}

// foldedConv returns the weights and bias a Conv node runs with: the
// folded ones when the run fuses and it has them, w and b otherwise.
func (n *Node) foldedConv(opt *Options, w, b *tensor.Tensor) (*tensor.Tensor, *tensor.Tensor) {
	if n == nil || n.fusion == nil || n.fusion.w == nil || !opt.fusing() {
		return w, b
	}
	return n.fusion.w, n.fusion.b
}

func floats64(t *tensor.Tensor) []float64 {
	out := make([]float64, t.Len())
	switch t.DataType() {
	case tensor.Float:
		for i, v := range elems[float32](t) {
			out[i] = float64(v)
		}
	case tensor.Double:
		copy(out, elems[float64](t))
	}
	return out
}

func fromFloats64(dt tensor.DataType, v []float64, shape []int) *tensor.Tensor {
	if dt == tensor.Double {
		t, _ := tensor.FromSlice(v, shape...)
		return t
	}
	f := make([]float32, len(v))
	for i, x := range v {
		f[i] = float32(x)
	}
	t, _ := tensor.FromSlice(f, shape...)
	return t
}
