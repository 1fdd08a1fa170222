// Gemm computes Y = alpha*A'*B' + beta*C, A' being A (M×K) or, with
// transA, A transposed; B' likewise (K×N); alpha and beta default to 1.
//
// Versions: 1 and 6 (C required; with broadcast = 0, the default, C is
// (M, N); with broadcast = 1 it broadcasts to (M, N)), 7 (C broadcasts
// unidirectionally to (M, N), the broadcast attribute gone), 9 (adds
// int32, int64, uint32, uint64), 11 (C optional), 13 (adds bfloat16);
// float16, float and double throughout. The rules, in order:
//
//	[type]      A's type is one the version allows; B's and C's are A's
//	[rank]      A and B are 2-D
//	[shape]     A' has as many columns as B' has rows
//	[C]         C is (M, N), or broadcasts to it (see above)
//
// As the ONNX reference computes it, beta = 0 leaves C unread (a NaN in C
// does not reach Y). float and double go through the engine's tuned
// kernels in their own type, float16 and bfloat16 in float32 rounded once,
// within the bound MatMul states (with |alpha| and |beta*C| in the sum).
// The integers multiply and sum in their own type, wrapping; with alpha 1
// and beta 0 or 1 the result is that exact integer (plus C), otherwise
// alpha*AB + beta*C is computed in float64, as the ONNX reference does,
// and truncated toward zero, saturating at the type's range (NaN is 0).

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/conv"
	"github.com/onnxshape/onnxshape/ops/internal/gemm"
	"github.com/onnxshape/onnxshape/ops/internal/rnn"
	"github.com/onnxshape/onnxshape/tensor"
)

var gemmTypes = versionTypes{1: floatTypes, 6: floatTypes, 7: floatTypes, 9: floatTypes | int3264Types,
	11: floatTypes | int3264Types, 13: floatBFTypes | int3264Types}

func init() {
	register("Gemm", []int{1, 6, 7, 9}, [2]int{3, 3}, [2]int{1, 1}, gemmNode)
	register("Gemm", []int{11, 13}, [2]int{2, 3}, [2]int{1, 1}, gemmNode)
	declareAttrs("Gemm", AttrSpec{Name: "alpha", Type: AttrFloat}, AttrSpec{Name: "beta", Type: AttrFloat},
		AttrSpec{Name: "transA", Type: AttrInt}, AttrSpec{Name: "transB", Type: AttrInt},
		AttrSpec{Name: "broadcast", Type: AttrInt, Before: 7})
}

// GemmOptions are the attributes of Gemm.
type GemmOptions struct {
	Alpha, Beta    float32 // the factors of A'B' and of C
	TransA, TransB bool    // whether A and B are transposed first
}

// Gemm returns alpha*A'*B' + beta*C (ONNX Gemm, version 13); c may be nil.
// The zero GemmOptions has alpha and beta 0: set them.
func Gemm(a, b, c *tensor.Tensor, o GemmOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Gemm", 13}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return gemmRun(opt, op, a, b, c, o, true, nil)
}

func gemmNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	a, err := n.requiredInput(in, 0, "A")
	if err != nil {
		return nil, err
	}
	b, err := n.requiredInput(in, 1, "B")
	if err != nil {
		return nil, err
	}
	var c *tensor.Tensor
	if n.Version < 11 {
		c, err = n.requiredInput(in, 2, "C")
	} else {
		c, err = n.tensorInput(in, 2)
	}
	if err != nil {
		return nil, err
	}
	var o GemmOptions
	if o.Alpha, err = n.Float("alpha", 1); err != nil {
		return nil, err
	}
	if o.Beta, err = n.Float("beta", 1); err != nil {
		return nil, err
	}
	ta, err := n.Int("transA", 0)
	if err != nil {
		return nil, err
	}
	tb, err := n.Int("transB", 0)
	if err != nil {
		return nil, err
	}
	o.TransA, o.TransB = ta != 0, tb != 0
	c, o.Beta = n.foldedGemm(opt, c, o.Beta)
	broadcast := true
	if n.Version < 7 {
		bc, err := n.Int("broadcast", 0)
		if err != nil {
			return nil, err
		}
		broadcast = bc != 0
	}
	y, err := gemmRun(opt, n.op(), a, b, c, o, broadcast, n.packedInput(1, b))
	if err != nil {
		return nil, err
	}
	if err := n.applyEpilogue(opt, y); err != nil {
		return nil, err
	}
	return opt.result(y), nil
}

// gemmShape checks the rules and returns M, N and K.
func gemmShape(op opRef, a, b, c *tensor.Tensor, o GemmOptions, broadcast bool) (m, n, k int, err error) {
	dt := a.DataType()
	if err := gemmTypes.check(op, "A", dt); err != nil {
		return 0, 0, 0, err
	}
	if b.DataType() != dt || (c != nil && c.DataType() != dt) {
		what := "B is " + b.DataType().String()
		if c != nil {
			what += ", C " + c.DataType().String()
		}
		return 0, 0, 0, op.errorf("type", "A is %v, %s: all are of type T", dt, what)
	}
	if a.Rank() != 2 || b.Rank() != 2 {
		return 0, 0, 0, op.errorf("rank", "A has shape %v and B %v: both must be 2-D", a.Shape(), b.Shape())
	}
	m, k = a.Shape()[0], a.Shape()[1]
	if o.TransA {
		m, k = k, m
	}
	kb, n := b.Shape()[0], b.Shape()[1]
	if o.TransB {
		kb, n = n, kb
	}
	if k != kb {
		return 0, 0, 0, op.errorf("shape", "A' (A of shape %v, transA %v) has %d columns, B' (B of shape %v, transB %v) %d rows", a.Shape(), o.TransA, k, b.Shape(), o.TransB, kb)
	}
	if c != nil {
		cs := c.Shape()
		ok := len(cs) <= 2
		for i, d := range cs {
			want := []int{m, n}[2-len(cs)+i]
			ok = ok && (d == want || (broadcast && d == 1))
		}
		if !ok || (!broadcast && len(cs) != 2) {
			how := "broadcast to"
			if !broadcast {
				how = "be (broadcast is 0)"
			}
			return 0, 0, 0, op.errorf("C", "C of shape %v does not %s (M, N) = (%d, %d)", cs, how, m, n)
		}
	}
	return m, n, k, nil
}

// gemmRun is Gemm; pb, when not nil, is B packed at load.
func gemmRun(opt *Options, op opRef, a, b, c *tensor.Tensor, o GemmOptions, broadcast bool, pb *weightPack) (*tensor.Tensor, error) {
	opt = opt.orDefault()
	if err := checkInput(op, "A", a); err != nil {
		return nil, err
	}
	if err := checkInput(op, "B", b); err != nil {
		return nil, err
	}
	m, n, k, err := gemmShape(op, a, b, c, o, broadcast)
	if err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, a.DataType(), []int{m, n})
	if err != nil {
		return nil, err
	}
	if y.Len() == 0 {
		return y, nil
	}
	g := gemmCall{m: m, n: n, k: k, lda: a.Shape()[1], ldb: b.Shape()[1], o: o}
	if c != nil && o.Beta != 0 {
		g.c = c
	}
	switch productTypeOf(a.DataType()) {
	case tensor.Float:
		err = gemmFloat[float32](opt, op, g, a, b, y, pb)
	case tensor.Double:
		err = gemmFloat[float64](opt, op, g, a, b, y, pb)
	case tensor.Int32:
		err = gemmInteger[int32](opt, op, g, a, b, y)
	case tensor.Int64:
		err = gemmInteger[int64](opt, op, g, a, b, y)
	case tensor.Uint32:
		err = gemmInteger[uint32](opt, op, g, a, b, y)
	case tensor.Uint64:
		err = gemmInteger[uint64](opt, op, g, a, b, y)
	}
	if err != nil {
		return nil, err
	}
	return y, nil
}

// gemmCall is one Gemm's product: sizes, row strides of A and B as
// stored, attributes, and C when it takes part (nil when absent or beta
// is 0).
type gemmCall struct {
	m, n, k  int
	lda, ldb int
	o        GemmOptions
	c        *tensor.Tensor
}

// broadcastC fills dst (M×N) with cv, C's elements, broadcast.
func broadcastC[T any](g gemmCall, cv, dst []T) {
	cs := g.c.Shape()
	rows, cols := 1, 1
	if len(cs) == 2 {
		rows, cols = cs[0], cs[1]
	} else if len(cs) == 1 {
		cols = cs[0]
	}
	for i := range g.m {
		ci := 0
		if rows != 1 {
			ci = i * cols
		}
		row := dst[i*g.n : (i+1)*g.n]
		if cols == 1 {
			for j := range row {
				row[j] = cv[ci]
			}
		} else {
			copy(row, cv[ci:ci+cols])
		}
	}
}

func gemmFloat[T float32 | float64](opt *Options, op opRef, g gemmCall, a, b, y *tensor.Tensor, pb *weightPack) error {
	av, err := productInput[T](opt, op, "A", a)
	if err != nil {
		return err
	}
	bv, err := productInput[T](opt, op, "B", b)
	if err != nil {
		return err
	}
	yv, store, err := productOutput[T](opt, op, y)
	if err != nil {
		return err
	}
	var beta T
	if g.c != nil {
		cv, err := productInput[T](opt, op, "C", g.c)
		if err != nil {
			return err
		}
		if done, err := gemmBias(opt, op, g, av, bv, cv, yv, pb); done {
			if err != nil {
				return gemmError(op, err)
			}
			return store()
		}
		broadcastC(g, cv, yv)
		beta = T(g.o.Beta)
	}
	if pp := packedFor[T](pb); pp.ok() {
		err = pp.run(gemmConfig(opt, op), g.o.TransA, g.m, g.n, g.k, T(g.o.Alpha), av, g.lda, beta, yv, g.n)
	} else {
		err = gemmFor[T]()(gemmConfig(opt, op), g.o.TransA, g.o.TransB, g.m, g.n, g.k, T(g.o.Alpha), av, g.lda, bv, g.ldb, beta, yv, g.n)
	}
	if err != nil {
		return gemmError(op, err)
	}
	return store()
}

// gemmBias runs a float32 Gemm whose C, with beta 1, is a bias by row
// (shape [M, 1]) or by column ([N] or [1, N]) through gemm.Float32Bias:
// the bias goes into the product's first block of k in the kernel's
// registers, the bits of filling Y with C and adding the product, without
// the pass that fills Y. done is false (nothing written) for any other C.
func gemmBias[T float32 | float64](opt *Options, op opRef, g gemmCall, av, bv, cv, yv []T, pb *weightPack) (done bool, err error) {
	a32, ok := any(av).([]float32)
	if !ok || g.o.Beta != 1 {
		return false, nil
	}
	var rowBias, colBias []float32
	c32 := any(cv).([]float32)
	switch cs := g.c.Shape(); {
	case len(cs) == 1 && cs[0] == g.n, len(cs) == 2 && cs[0] == 1 && cs[1] == g.n:
		colBias = c32
	case len(cs) == 2 && cs[0] == g.m && cs[1] == 1:
		rowBias = c32
	default:
		return false, nil
	}
	var packed *gemm.PackedB32
	if pb != nil {
		packed = pb.f32
	}
	b32, _ := any(bv).([]float32)
	return true, gemm.Float32Bias(gemmConfig(opt, op), g.o.TransA, g.o.TransB, g.m, g.n, g.k, g.o.Alpha, a32, g.lda, b32, g.ldb, packed, rowBias, colBias, any(yv).([]float32), g.n)
}

func gemmInteger[T int32 | int64 | uint32 | uint64](opt *Options, op opRef, g gemmCall, a, b, y *tensor.Tensor) error {
	av, bv, yv := elems[T](a), elems[T](b), elems[T](y)
	err := gemm.Generic(gemmConfig(opt, op), g.o.TransA, g.o.TransB, g.m, g.n, g.k, 1, av, g.lda, bv, g.ldb, 0, yv, g.n)
	if err != nil {
		return gemmError(op, err)
	}
	alpha, beta := float64(g.o.Alpha), float64(g.o.Beta)
	if alpha == 1 && (g.c == nil || beta == 1) {
		if g.c != nil {
			if err := opt.scratch(op, "C broadcast", len(yv), int(tensor.TypeOf[T]().Size())); err != nil {
				return err
			}
			cb := make([]T, len(yv))
			broadcastC(g, elems[T](g.c), cb)
			for i := range yv {
				yv[i] += cb[i]
			}
		}
		return nil
	}
	var cb []T
	if g.c != nil {
		if err := opt.scratch(op, "C broadcast", len(yv), int(tensor.TypeOf[T]().Size())); err != nil {
			return err
		}
		cb = make([]T, len(yv))
		broadcastC(g, elems[T](g.c), cb)
	}
	for i, s := range yv {
		v := alpha * float64(s)
		if cb != nil {
			v += beta * float64(cb[i])
		}
		yv[i] = truncSaturate[T](v)
	}
	return nil
}

// truncSaturate converts x to the integer type T as numpy's astype
// would for values in range: toward zero; outside the range it saturates,
// and NaN is 0.
func truncSaturate[T int32 | int64 | uint32 | uint64](x float64) T {
	var lo, hi float64
	var top T
	switch p := any(&top).(type) {
	case *int32:
		lo, hi, *p = math.MinInt32, math.MaxInt32, math.MaxInt32
	case *int64:
		lo, hi, *p = -0x1p63, 0x1p63, math.MaxInt64
	case *uint32:
		lo, hi, *p = 0, math.MaxUint32, math.MaxUint32
	case *uint64:
		lo, hi, *p = 0, 0x1p64, math.MaxUint64
	}
	x = math.Trunc(x)
	switch {
	case x != x:
		return 0
	case x <= lo:
		return T(lo)
	case x >= hi:
		return top
	}
	return T(x)
}

// Prepacked weights. A matrix product copies its B operand into the
// panels its micro-kernel reads (ops/internal/gemm); when B is a constant
// of the model (a MatMul's or Gemm's weights, MatMulInteger's or
// QLinearMatMul's int8 weights), that copy is the same at every run. The
// model runner hands PackConstants a node's constant inputs once, at
// load; the node keeps the packed copies, charged to the model's memory,
// and its kernel uses them at every run whose input is that very tensor
// (the initializer, never a caller's override), skipping the copy and its
// scratch. The float engine reads Conv's weights in place as the
// product's A operand, except for a 1-D float convolution of a few output
// positions (ops/internal/conv.ForwardFew: an STFT as a Conv, a layer over
// a few frames), whose product is turned around so that the weights are
// B: those of a one-group 1-D float Conv are packed for it; float16 and
// bfloat16 weights, which the engine reads in float32, are converted once. The int8
// convolutions' (ConvInteger, QLinearConv) are packed with their row sums
// (conv.PackIntegerWeights), since the 8-bit kernel reads them flipped
// and interleaved. The recurrent cells (LSTM, GRU, RNN)
// keep W and R transposed, as their products read them
// (ops/internal/rnn.Inputs.WT and RT). The normalizations' constant
// scales and biases (LayerNormalization, RMSNormalization,
// InstanceNormalization, GroupNormalization) are kept as the float64
// their engine reads (normParam64s), converted once instead of at every run.

// weightPack is one input of a node packed for the GEMM engine.
type weightPack struct {
	src *tensor.Tensor // the constant it was packed from
	f32 *gemm.PackedB32
	f64 *gemm.PackedB64
	i8  *gemm.PackedB8
	// c8 is an int8 convolution's weights (ConvInteger, QLinearConv).
	c8 *conv.IntegerWeights
	// t32 and t64 are a recurrent cell's W or R transposed; t32 is also a
	// float16 or bfloat16 Conv's weights in float32 (packConvW), t64 a
	// normalization's scale or bias as float64 (packNormParam).
	t32 []float32
	t64 []float64
	// rp is a recurrent cell's R^T also packed in the GEMM engine's
	// panels, as its steps' products read it.
	rp *rnn.PackedR
	// at32 is a float32 Conv's weights packed with the output channels
	// on the vector lanes, for its products over few positions
	// (conv.Config.WeightsT).
	at32 *gemm.PackedAT32
	// a32 is a float32 Conv's weights packed in the GEMM kernel's panels,
	// a block of k after the other, for its implicit products
	// (conv.Config.WeightsA).
	a32 *gemm.PackedA32
	// packedOnly says a32 (with at32) is the only copy of the folded
	// weights it was packed from (PackConstants dropped them): src is then
	// a stand-in of their shape on the initializer's storage, never read,
	// and a run that cannot read a32 alone (conv.PackedOnly) unpacks it
	// into scratch.
	packedOnly bool
}

// nodePacks are a node's packed constant inputs, by input index.
type nodePacks map[int]*weightPack

// packedInput returns input i's packed copy when the node holds one made
// from t itself, else nil.
func (n *Node) packedInput(i int, t *tensor.Tensor) *weightPack {
	if n == nil || n.packs == nil {
		return nil
	}
	if p := n.packs[i]; p != nil && p.src == t {
		return p
	}
	return nil
}

// packer packs one constant input of a node (nil: nothing to pack).
type packer func(n *Node, t *tensor.Tensor, cfg gemm.Config) (*weightPack, error)

// packers are the operators whose constant weights are packed, by the
// input they are.
var packers = map[string]map[int]packer{
	"MatMul":        {1: packMatMulB},
	"Conv":          {1: packConvW},
	"Gemm":          {1: packGemmB},
	"MatMulInteger": {1: packIntegerB},
	"QLinearMatMul": {3: packIntegerB},
	"ConvInteger":   {1: packConvIntegerW},
	"QLinearConv":   {3: packConvIntegerW},
	"LSTM":          {1: packRecurrentW, 2: packRecurrentR},
	"GRU":           {1: packRecurrentW, 2: packRecurrentR},
	"RNN":           {1: packRecurrentW, 2: packRecurrentR},

	"LayerNormalization":    {1: packNormParam, 2: packNormParam},
	"RMSNormalization":      {1: packNormParam},
	"InstanceNormalization": {1: packNormParam, 2: packNormParam},
	"GroupNormalization":    {1: packNormParam, 2: packNormParam},
	"BatchNormalization":    {1: packNormParam, 2: packNormParam, 3: packNormParam, 4: packNormParam},
}

// PackConstants packs, once, those of node n's constant inputs that its
// kernel multiplies as the B operand of a matrix product (or reads as
// float64: a normalization's scale and bias). consts holds
// input i when it is a constant of the model (an initializer), nil
// otherwise. charge is told the bytes of each packed copy before it is
// allocated; its refusal is returned and leaves the input unpacked (the
// kernel then packs it at every run, as without a constant). PackConstants returns the
// bytes the node now holds. It must be called before the node's first
// run, never while the node runs: the model runner calls it at load.
// Nodes of the default domain only.
func PackConstants(n *Node, consts []tensor.Value, charge func(bytes int64) error) (int64, error) {
	if n == nil || n.Domain != "" {
		return 0, nil
	}
	var total int64
	for i, pack := range packers[n.OpType] {
		if i >= len(consts) {
			continue
		}
		b, ok := consts[i].(*tensor.Tensor)
		if !ok || b == nil || b.Len() == 0 {
			continue
		}
		if f := n.fusion; n.OpType == "Conv" && i == 1 && f != nil && f.w != nil {
			// A BatchNormalization folded into the Conv at load: its runs
			// read the folded weights (foldedConv), so those are packed.
			b = f.w
		}
		p, err := pack(n, b, gemm.Config{Charge: charge})
		if err != nil {
			return total, err
		}
		if p == nil {
			continue
		}
		p.src = b
		if n.packs == nil {
			n.packs = nodePacks{}
		}
		n.packs[i] = p
		total += p.bytes()
		if f := n.fusion; b == f.foldedW() && p.a32 != nil && p.a32.Serves(0, p.a32.M(), p.a32.K(), true) && !f.readsInPlace() {
			// The folded weights are read packed (conv.PackedOnly) or
			// unpacked from a32 at a run: the model keeps one copy (where
			// the kernels in use read a32 with a prefetch: AVX-512). A
			// stand-in keeps their shape, and the runs find the pack by it.
			orig, _ := consts[i].(*tensor.Tensor)
			if v, err := orig.View(b.Shape()...); err == nil && orig.DataType() == b.DataType() {
				f.w, p.src, p.packedOnly = v, v, true
				total -= int64(b.ByteLen())
			}
		}
	}
	return total, nil
}

// foldedW is the folded weights of f (nil: none, or no f).
func (f *nodeFusion) foldedW() *tensor.Tensor {
	if f == nil {
		return nil
	}
	return f.w
}

func (p *weightPack) bytes() int64 {
	switch {
	case p.f32 != nil:
		return p.f32.Bytes()
	case p.f64 != nil:
		return p.f64.Bytes()
	case p.i8 != nil:
		return p.i8.Bytes()
	case p.c8 != nil:
		return p.c8.Bytes()
	}
	return 4*int64(len(p.t32)) + 8*int64(len(p.t64)) + p.rp.Bytes() + p.at32.Bytes() + p.a32.Bytes()
}

// packRecurrentW and packRecurrentR transpose a recurrent cell's W
// ([dirs, gates*hidden, input]) or R ([dirs, gates*hidden, hidden]) of
// float or double, as rnn.TransposeW and TransposeR do at every run
// otherwise. The kernel uses them only when the shapes it checks agree.
func packRecurrentW(_ *Node, w *tensor.Tensor, cfg gemm.Config) (*weightPack, error) {
	return packRecurrent(w, cfg, false)
}

func packRecurrentR(n *Node, r *tensor.Tensor, cfg gemm.Config) (*weightPack, error) {
	p, err := packRecurrent(r, cfg, true)
	if p == nil || err != nil {
		return p, err
	}
	// R^T in panels too, for the steps' products (rnn.PackR).
	cell := map[string]rnn.Cell{"LSTM": rnn.LSTM, "GRU": rnn.GRU, "RNN": rnn.RNN}[n.OpType]
	s := r.Shape()
	if s[1] != cell.Gates()*s[2] {
		return p, nil
	}
	if p.t32 != nil {
		p.rp, err = rnn.PackR(cfg, cell, p.t32, s[0], s[1], s[2])
	} else {
		p.rp, err = rnn.PackR(cfg, cell, p.t64, s[0], s[1], s[2])
	}
	return p, err
}

func packRecurrent(t *tensor.Tensor, cfg gemm.Config, isR bool) (*weightPack, error) {
	s := t.Shape()
	if len(s) != 3 || (isR && s[1] < s[2]) {
		return nil, nil
	}
	dirs, gh, cols := s[0], s[1], s[2]
	if cfg.Charge != nil {
		if err := cfg.Charge(int64(t.Len()) * int64(t.DataType().Size())); err != nil {
			return nil, err
		}
	}
	switch t.DataType() {
	case tensor.Float:
		if isR {
			return &weightPack{t32: rnn.TransposeR(elems[float32](t), dirs, gh, cols)}, nil
		}
		return &weightPack{t32: rnn.TransposeW(elems[float32](t), dirs, gh, cols)}, nil
	case tensor.Double:
		if isR {
			return &weightPack{t64: rnn.TransposeR(elems[float64](t), dirs, gh, cols)}, nil
		}
		return &weightPack{t64: rnn.TransposeW(elems[float64](t), dirs, gh, cols)}, nil
	}
	return nil, nil
}

// transposedFor returns p's transposed copy in T, nil when it holds none.
func transposedFor[T float32 | float64](p *weightPack) []T {
	if p == nil {
		return nil
	}
	if v, ok := any(p.t32).([]T); ok && v != nil {
		return v
	}
	if v, ok := any(p.t64).([]T); ok && v != nil {
		return v
	}
	return nil
}

// packFloatB packs a 2-D float or double B (k×n, or n×k when transB).
func packFloatB(b *tensor.Tensor, transB bool, cfg gemm.Config) (*weightPack, error) {
	s := b.Shape()
	if len(s) != 2 {
		return nil, nil
	}
	k, n := s[0], s[1]
	if transB {
		k, n = n, k
	}
	switch b.DataType() {
	case tensor.Float:
		pb, err := gemm.PackB32(cfg, transB, k, n, elems[float32](b), s[1])
		if err != nil {
			return nil, err
		}
		return &weightPack{f32: pb}, nil
	case tensor.Double:
		pb, err := gemm.PackB64(cfg, transB, k, n, elems[float64](b), s[1])
		if err != nil {
			return nil, err
		}
		return &weightPack{f64: pb}, nil
	}
	return nil, nil
}

func packMatMulB(_ *Node, b *tensor.Tensor, cfg gemm.Config) (*weightPack, error) {
	return packFloatB(b, false, cfg)
}

func packGemmB(n *Node, b *tensor.Tensor, cfg gemm.Config) (*weightPack, error) {
	tb, err := n.Int("transB", 0)
	if err != nil {
		return nil, nil // the kernel reports it
	}
	return packFloatB(b, tb != 0, cfg)
}

// packIntegerB packs a 2-D int8 or uint8 B.
func packIntegerB(_ *Node, b *tensor.Tensor, cfg gemm.Config) (*weightPack, error) {
	s := b.Shape()
	if len(s) != 2 || !is8bit(b.DataType()) {
		return nil, nil
	}
	pb, err := gemm.PackB8(cfg, s[0], s[1], b.Bytes(), b.DataType() == tensor.Int8, s[1])
	if err != nil {
		return nil, err
	}
	return &weightPack{i8: pb}, nil
}

// packedProduct is the product with a packed B in T: gemm.Float32Packed
// or Float64Packed with p's panels. The zero value has none. A value
// rather than a closure bound to p, which would cost an allocation at
// every product.
type packedProduct[T gemm.Number] struct{ p *weightPack }

// packedFor returns the product with p's packed B in T, the zero value
// when p holds none of T.
func packedFor[T gemm.Number](p *weightPack) packedProduct[T] {
	if p == nil {
		return packedProduct[T]{}
	}
	var zero T
	switch any(zero).(type) {
	case float32:
		if p.f32 != nil {
			return packedProduct[T]{p}
		}
	case float64:
		if p.f64 != nil {
			return packedProduct[T]{p}
		}
	}
	return packedProduct[T]{}
}

// ok reports whether pp has a packed B.
func (pp packedProduct[T]) ok() bool { return pp.p != nil }

// run is C = alpha·op(A)·B + beta·C with the packed B (see gemm.Float32Packed).
func (pp packedProduct[T]) run(cfg gemm.Config, transA bool, m, n, k int, alpha T, a []T, lda int, beta T, c []T, ldc int) error {
	switch a := any(a).(type) {
	case []float32:
		return gemm.Float32Packed(cfg, transA, m, n, k, any(alpha).(float32), a, lda, pp.p.f32, any(beta).(float32), any(c).([]float32), ldc)
	case []float64:
		return gemm.Float64Packed(cfg, transA, m, n, k, any(alpha).(float64), a, lda, pp.p.f64, any(beta).(float64), any(c).([]float64), ldc)
	}
	return nil
}
