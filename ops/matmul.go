// MatMul is numpy's matmul: the product of the last two axes of A and B,
// the axes before them (the batch) broadcast; a 1-D A is a row [1, K] and
// a 1-D B a column [K, 1], whose added axis is dropped from the result.
//
// Versions: 1 (float16, float, double), 9 (adds int32, int64, uint32,
// uint64) and 13 (adds bfloat16). The rules, in order (below):
//
//	[type]      A's type is one the version allows, and B's is A's
//	[rank]      neither is a scalar
//	[shape]     A's columns are B's rows
//	[broadcast] the batch axes broadcast
//
// float and double go through the engine's tuned kernels
// (ops/internal/gemm), summing in their own type; float16 and bfloat16 are
// computed in float32 and rounded once; the integers multiply and sum in
// their own type, wrapping as numpy does. Each element of a float result
// is within (K+2)*eps*sum_p |A[i,p]*B[p,j]| of the exact product, eps the
// unit roundoff of float32 or float64 (reference.Agree's bound, plus half
// a unit in the last place of float16 or bfloat16).

package ops

import (
	"context"
	"errors"

	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/ops/internal/gemm"
	"github.com/onnxshape/onnxshape/ops/internal/parallel"
	"github.com/onnxshape/onnxshape/tensor"
)

var matMulTypes = versionTypes{1: floatTypes, 9: floatTypes | int3264Types, 13: floatBFTypes | int3264Types}

func init() {
	register("MatMul", []int{1, 9, 13}, [2]int{2, 2}, [2]int{1, 1}, matMulNode)
	declareAttrs("MatMul")
}

// MatMul returns the matrix product of a and b (ONNX MatMul, version 13).
func MatMul(a, b *tensor.Tensor, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"MatMul", 13}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	y, _, err := matMul(opt, op, a, b, nil, nil)
	return y, err
}

func matMulNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	a, err := n.requiredInput(in, 0, "A")
	if err != nil {
		return nil, err
	}
	b, err := n.requiredInput(in, 1, "B")
	if err != nil {
		return nil, err
	}
	res := n.residualIn(opt, in)
	if n.folds != nil && opt.fusing() {
		return matMulFolded(opt, n, a, b, res)
	}
	y, biased, err := matMul(opt, n.op(), a, b, n.packedInput(1, b), n.columnBias(opt))
	if err != nil {
		return nil, err
	}
	if !biased {
		n.applyBias(opt, y)
	}
	return n.finishMatMul(opt, y, res)
}

// maxSerialResidual is the most elements of a product that finishMatMul
// adds its residual to in one pass on the calling goroutine, while the
// product's last tiles are still in cache; a larger one goes through the
// Add's kernel, which splits it among the run's workers.
const maxSerialResidual = 1 << 18

// finishMatMul runs what n fused after its product and bias: the residual
// Add (FuseResidual; res nil when none), then the activation. A residual
// of y's type and shape is added in place on y, as the Add's own kernel
// adds it (one rounding per element, the Add's bits); any other, or a
// large one, runs the Add's kernel, which broadcasts and checks it as the unfused node would.
func (n *Node) finishMatMul(opt *Options, y, res *tensor.Tensor) ([]tensor.Value, error) {
	if res != nil {
		dt := y.DataType()
		if res.DataType() == dt && tensor.SameShape(res.Shape(), y.Shape()) && (dt == tensor.Float || dt == tensor.Double) && y.Len() <= maxSerialResidual {
			switch dt {
			case tensor.Float:
				addResidualBlock(elems[float32](y), elems[float32](res))
			case tensor.Double:
				addResidualBlock(elems[float64](y), elems[float64](res))
			}
		} else {
			var err error
			if y, err = n.addResidual(opt, y, res); err != nil {
				return nil, err
			}
		}
	}
	if err := n.applyEpilogue(opt, y); err != nil {
		return nil, err
	}
	return values(y), nil
}

// columnBias returns n's folded bias (foldMatMulBias) when the run fuses
// it and it is float32 with one value per column, which the product's
// kernels can add to each tile before they store it; nil otherwise.
func (n *Node) columnBias(opt *Options) []float32 {
	if n.fusion == nil || n.fusion.bias == nil || !opt.fusing() || n.fusion.bias.DataType() != tensor.Float || n.fusion.bias.Len() < 2 {
		return nil
	}
	return elems[float32](n.fusion.bias)
}

// matMul is MatMul; pb, when not nil, is B packed at load. colBias, when
// not nil, is a bias per column of the product that the kernels may add
// (the bits of y + colBias after the product); biased reports that they
// did.
func matMul(opt *Options, op opRef, a, b *tensor.Tensor, pb *weightPack, colBias []float32) (y *tensor.Tensor, biased bool, err error) {
	opt = opt.orDefault()
	if err := checkInput(op, "A", a); err != nil {
		return nil, false, err
	}
	if err := checkInput(op, "B", b); err != nil {
		return nil, false, err
	}
	dt := a.DataType()
	if err := matMulTypes.check(op, "A", dt); err != nil {
		return nil, false, err
	}
	if b.DataType() != dt {
		return nil, false, op.errorf("type", "A is %v and B %v: both are of type T", dt, b.DataType())
	}
	if err := matMulSONNX(opt, op, a, b); err != nil {
		return nil, false, err
	}
	s, err := matmulShapes(op, a.Shape(), b.Shape())
	if err != nil {
		return nil, false, err
	}
	y, err = opt.newOverwritten(op, dt, s.out)
	if err != nil {
		return nil, false, err
	}
	if dt != tensor.Float {
		colBias = nil
	}
	switch productTypeOf(dt) {
	case tensor.Float:
		biased, err = matMulAs[float32](opt, op, &s, a, b, y, pb, colBias)
	case tensor.Double:
		biased, err = matMulAs[float64](opt, op, &s, a, b, y, pb, nil)
	case tensor.Int32:
		biased, err = matMulAs[int32](opt, op, &s, a, b, y, nil, nil)
	case tensor.Int64:
		biased, err = matMulAs[int64](opt, op, &s, a, b, y, nil, nil)
	case tensor.Uint32:
		biased, err = matMulAs[uint32](opt, op, &s, a, b, y, nil, nil)
	case tensor.Uint64:
		biased, err = matMulAs[uint64](opt, op, &s, a, b, y, nil, nil)
	}
	if err != nil {
		return nil, false, err
	}
	return y, biased, nil
}

// matMulAs runs the products of s in T; with B packed at load and
// colBias of n values (float32), the kernels add colBias to each row of
// every product, and it reports true.
func matMulAs[T gemm.Number](opt *Options, op opRef, s *matmulShape, a, b, y *tensor.Tensor, pb *weightPack, colBias []float32) (bool, error) {
	if y.Len() == 0 {
		return false, nil
	}
	av, err := productInput[T](opt, op, "A", a)
	if err != nil {
		return false, err
	}
	bv, err := productInput[T](opt, op, "B", b)
	if err != nil {
		return false, err
	}
	yv, store, err := productOutput[T](opt, op, y)
	if err != nil {
		return false, err
	}
	mm := gemmFor[T]()
	if s.stacked() {
		// Every product reads the same B and the next matrix of A: one
		// product of count*m rows packs B once (or reads its load-time
		// panels) and splits the rows and columns across the cores.
		one := *s
		one.m, one.count = mulCounts(s.count, s.m), 1
		s = &one
	}
	m, n, k := s.m, s.n, s.k
	if pp := packedFor[T](pb); pp.ok() && len(b.Shape()) == 2 {
		// B, the model's constant weights, was packed at load.
		a32, aok := any(av).([]float32)
		y32, yok := any(yv).([]float32)
		fused := colBias != nil && len(colBias) == n && aok && yok && pp.p.f32 != nil
		err = s.eachProduct(opt, op, func(cfg gemm.Config, i, ai, bi int) error {
			if fused {
				return gemm.Float32PackedFinish(cfg, false, m, n, k, a32[ai*m*k:(ai+1)*m*k], k, pp.p.f32, y32[i*m*n:(i+1)*m*n], n, gemm.Finish{ColBias: colBias})
			}
			return pp.run(cfg, false, m, n, k, 1, av[ai*m*k:(ai+1)*m*k], k, 0, yv[i*m*n:(i+1)*m*n], n)
		})
		if err != nil {
			return false, err
		}
		return fused, store()
	}
	err = s.eachProduct(opt, op, func(cfg gemm.Config, i, ai, bi int) error {
		return mm(cfg, false, false, m, n, k, 1, av[ai*m*k:(ai+1)*m*k], k, bv[bi*k*n:(bi+1)*k*n], n, 0, yv[i*m*n:(i+1)*m*n], n)
	})
	if err != nil {
		return false, err
	}
	return false, store()
}

// What the matrix-product operators (MatMul, MatMulInteger, QLinearMatMul,
// Gemm, Einsum) share: numpy matmul's shapes (the batch dimensions
// broadcast, a 1-D operand promoted to a matrix and its axis dropped from
// the result), the walk of the batches over the matrix-product engine
// (ops/internal/gemm), the engine's run settings, and its errors.

// matmulShape is numpy matmul of A and B: count products of (m×k)·(k×n),
// the batch axes broadcast.
type matmulShape struct {
	m, k, n int
	batch   []int // the broadcast batch shape
	// aIndex and bIndex map a batch axis's index to the matrix of A (B)
	// it reads: the matrix number advances by these per unit of the axis
	// (0 where the operand broadcasts).
	aIndex, bIndex []int
	out            []int // the output shape
	count          int   // the number of products: the batch shape's size
}

// matmulShapes checks the shapes of A and B as numpy matmul does:
//
//	[rank]      neither is a scalar
//	[shape]     A's last axis equals B's (next to last when B has rank > 1)
//	[broadcast] the batch axes broadcast
func matmulShapes(op opRef, a, b []int) (matmulShape, error) {
	if len(a) == 0 || len(b) == 0 {
		return matmulShape{}, op.errorf("rank", "A has shape %v and B %v: a matrix product takes no scalar", a, b)
	}
	as, bs := a, b
	if len(a) == 1 {
		as = []int{1, a[0]}
	}
	if len(b) == 1 {
		bs = []int{b[0], 1}
	}
	s := matmulShape{m: as[len(as)-2], k: as[len(as)-1], n: bs[len(bs)-1]}
	if kb := bs[len(bs)-2]; kb != s.k {
		return matmulShape{}, op.errorf("shape", "A of shape %v has %d columns, B of shape %v has %d rows", a, s.k, b, kb)
	}
	ab, bb := as[:len(as)-2], bs[:len(bs)-2]
	r := max(len(ab), len(bb))
	s.batch = make([]int, r)
	s.aIndex = make([]int, r)
	s.bIndex = make([]int, r)
	aStep, bStep := 1, 1
	s.count = 1
	for i := r - 1; i >= 0; i-- {
		da, db := 1, 1
		if j := i - (r - len(ab)); j >= 0 {
			da = ab[j]
		}
		if j := i - (r - len(bb)); j >= 0 {
			db = bb[j]
		}
		d := da
		switch {
		case da == db:
		case da == 1:
			d = db
		case db == 1:
		default:
			return matmulShape{}, op.errorf("broadcast", "the batch axes of A %v and B %v do not broadcast (%d against %d)", a, b, da, db)
		}
		s.batch[i] = d
		if da == d && d != 1 {
			s.aIndex[i] = aStep
		}
		if db == d && d != 1 {
			s.bIndex[i] = bStep
		}
		aStep = mulCounts(aStep, da)
		bStep = mulCounts(bStep, db)
		s.count = mulCounts(s.count, d)
	}
	s.out = append([]int{}, s.batch...)
	if len(a) > 1 {
		s.out = append(s.out, s.m)
	}
	if len(b) > 1 {
		s.out = append(s.out, s.n)
	}
	return s, nil
}

// matrices returns the numbers of the matrices of A and B that product i
// (in row-major order of the batch shape) multiplies.
func (s *matmulShape) matrices(i int) (ai, bi int) {
	for ax := len(s.batch) - 1; ax >= 0 && i > 0; ax-- {
		d := s.batch[ax]
		x := i % d
		i /= d
		ai += x * s.aIndex[ax]
		bi += x * s.bIndex[ax]
	}
	return ai, bi
}

// stacked reports whether every product reads B's only matrix (B has no
// batch axes, or they are all 1) and A's matrices in order (product i
// reads matrix i of A): the products are then one product of A's rows
// stacked, with the same sums, element for element.
func (s *matmulShape) stacked() bool {
	if s.count <= 1 {
		return false
	}
	step := 1
	for ax := len(s.batch) - 1; ax >= 0; ax-- {
		if d := s.batch[ax]; d != 1 {
			if s.bIndex[ax] != 0 || s.aIndex[ax] != step {
				return false
			}
			step *= d
		}
	}
	return true
}

// gemmPerCore is the work (multiply-adds) of one product above which the
// batches run one after the other, each product on every core; below it,
// whole products are shared among the cores.
const gemmPerCore = 1 << 20

// eachProduct calls f for every product of s, with the engine's settings
// and the numbers of the matrices of A and B and of the output. Large
// products run one after the other, each on every core; small ones are
// shared among the cores, one core each.
func (s *matmulShape) eachProduct(opt *Options, op opRef, f func(cfg gemm.Config, i, ai, bi int) error) error {
	work := mulCounts(mulCounts(s.m, s.n), max(s.k, 1))
	if s.count == 1 || work >= gemmPerCore {
		cfg := gemmConfig(opt, op)
		for i := range s.count {
			ai, bi := s.matrices(i)
			if err := f(cfg, i, ai, bi); err != nil {
				return gemmError(op, err)
			}
		}
		return nil
	}
	shared := gemmConfig(opt, op) // one scratch account, a slot per worker
	o := opt.orDefault()
	err := parallel.RangeW(o.env.Ctx, o.threads(), s.count, mulCounts(s.count, work), func(w, lo, hi int) error {
		cfg := shared
		cfg.Threads, cfg.Scratch = 1, shared.Scratch.Slot(w)
		for i := lo; i < hi; i++ {
			ai, bi := s.matrices(i)
			if err := f(cfg, i, ai, bi); err != nil {
				return err
			}
		}
		return nil
	})
	return gemmError(op, err)
}

// gemmConfig is the engine's settings for op's products: the run's
// context, cores and byte budget, and one scratch account (gemm.Scratch)
// for all the products of this call of the operator, so that a batch of
// a thousand products charges the packing buffers it reuses once.
//
// Under the model runner (o.env.Headers set), whose nodes run one at a
// time, the account and the budget's function are o's own, reset at each
// call, rather than two allocations a product.
func gemmConfig(opt *Options, op opRef) gemm.Config {
	o := opt.orDefault()
	if o.env.Headers != nil {
		a := o.gemm
		if a == nil || a.o != o { // a copy of a run's Options makes its own
			a = &gemmAccount{o: o}
			a.charge = a.chargePanels
			o.gemm = a
		}
		a.op, a.scratch = op, gemm.Scratch{}
		return gemm.Config{Ctx: o.env.Ctx, Threads: o.threads(), Charge: a.charge, Scratch: &a.scratch}
	}
	return gemm.Config{Ctx: o.env.Ctx, Threads: o.threads(), Charge: func(bytes int64) error {
		return o.charge(op, "the product's packed panels", bytes)
	}, Scratch: new(gemm.Scratch)}
}

// gemmAccount is what a model run's Options lends the products its nodes
// run one after another (gemmConfig): the scratch account and the
// budget's function for the node running.
type gemmAccount struct {
	o       *Options
	op      opRef
	charge  func(int64) error // a.chargePanels, bound once
	scratch gemm.Scratch
}

func (a *gemmAccount) chargePanels(bytes int64) error {
	return a.o.charge(a.op, "the product's packed panels", bytes)
}

// gemmError turns an error of the engine into op's: a cancelled run, a
// refused charge (already op's), or matrices that do not fit their
// slices, which would be a bug of the operator.
func gemmError(op opRef, err error) error {
	var e *Error
	switch {
	case err == nil, errors.As(err, &e):
		return err
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return op.stopped(err)
	}
	return op.wrap("shape", err, "the product")
}

// gemmFunc is the engine's product for elements of type T.
type gemmFunc[T gemm.Number] func(cfg gemm.Config, transA, transB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) error

// gemmFor returns the engine's product for T: the tuned float32 and
// float64 kernels, the generic one for the integers.
func gemmFor[T gemm.Number]() gemmFunc[T] {
	var zero T
	switch any(zero).(type) {
	case float32:
		return any(gemmFunc[float32](gemm.Float32)).(gemmFunc[T])
	case float64:
		return any(gemmFunc[float64](gemm.Float64)).(gemmFunc[T])
	}
	return gemm.Generic[T]
}

// productTypeOf is the type a matrix product of elements of type dt
// computes in: float16 and bfloat16 in float32, the others in their own.
func productTypeOf(dt tensor.DataType) tensor.DataType {
	if dt == tensor.Float16 || dt == tensor.BFloat16 {
		return tensor.Float
	}
	return dt
}

// productInput returns t's elements as the []T a product reads: t's own
// storage (never written) when t is of type T, else a float32 copy of a
// float16 or bfloat16 tensor, charged first.
func productInput[T gemm.Number](opt *Options, op opRef, what string, t *tensor.Tensor) ([]T, error) {
	if productTypeOf(t.DataType()) == t.DataType() {
		return asElems[T](t.Bytes())[:t.Len()], nil
	}
	if err := opt.scratch(op, what+" in float32", t.Len(), 4); err != nil {
		return nil, err
	}
	v, err := convert.LoadFloatsPolled[float32](opt.orDefault().env.Ctx, t)
	if err != nil {
		return nil, op.stopped(err)
	}
	return any(v).([]T), nil
}

// productOutput returns the []T a product writes y's elements to, and the
// function that stores them into y (rounding float32 to float16 or
// bfloat16) when y is not of type T.
func productOutput[T gemm.Number](opt *Options, op opRef, y *tensor.Tensor) ([]T, func() error, error) {
	if productTypeOf(y.DataType()) == y.DataType() {
		return asElems[T](y.Bytes())[:y.Len()], storedInPlace, nil
	}
	if err := opt.scratch(op, "the output in float32", y.Len(), 4); err != nil {
		return nil, nil, err
	}
	v := make([]float32, y.Len())
	return any(v).([]T), func() error {
		if err := convert.StoreFloatsPolled(opt.orDefault().env.Ctx, y, v); err != nil {
			return op.stopped(err)
		}
		return nil
	}, nil
}

// storedInPlace is productOutput's store when the product writes y's own
// elements: a plain function, where a literal in the generic function
// would be a closure over its dictionary, allocated at every call.
func storedInPlace() error { return nil }

// productQuantLayout checks the shape p of a quantized product's zero point or
// scale for an operand of shape x: per tensor (a scalar or one element),
// per row of A (perRow: M elements, or x's shape with its last axis 1,
// one set per matrix) or per column of B (N elements, or x's shape with
// its next-to-last axis 1). It returns the elements per matrix (0 per
// tensor) and whether each matrix of the operand has its own set.
func productQuantLayout(op opRef, rule, what string, p, x []int, perRow bool) (per int, batched bool, err error) {
	count := 1
	if len(x) >= 2 {
		if perRow {
			count = x[len(x)-2]
		} else {
			count = x[len(x)-1]
		}
	}
	switch {
	case len(p) == 0 || (len(p) == 1 && p[0] == 1):
		return 0, false, nil
	case len(p) == 1 && p[0] == count:
		return count, false, nil
	case len(p) == len(x) && len(x) >= 2:
		ok := true
		for i, d := range p {
			want := x[i]
			if (perRow && i == len(x)-1) || (!perRow && i == len(x)-2) {
				want = 1
			}
			ok = ok && d == want
		}
		if ok {
			return count, true, nil
		}
	}
	how := "per row: [M] or A's shape with its last axis 1"
	if !perRow {
		how = "per column: [N] or B's shape with its next-to-last axis 1"
	}
	return 0, false, op.errorf(rule, "%s has shape %v for an operand of shape %v: expected a scalar (per tensor) or %s", what, p, x, how)
}

// quantSlice returns the part of a per-tensor, per-row or per-column
// parameter v (laid out as productQuantLayout says) that matrix i of its operand
// uses.
func quantSlice[T any](v []T, per int, batched bool, i int) []T {
	switch {
	case per == 0:
		return v[:1]
	case batched:
		return v[i*per : (i+1)*per]
	}
	return v
}

// zeroPoints returns the zero points of t (int8 or uint8) as int32, a
// single 0 when t is nil.
func zeroPoints(opt *Options, op opRef, t *tensor.Tensor) ([]int32, error) {
	if t == nil {
		return []int32{0}, nil
	}
	if err := opt.scratch(op, "the zero points", t.Len(), 4); err != nil {
		return nil, err
	}
	out := make([]int32, t.Len())
	for i, b := range t.Bytes()[:t.Len()] {
		if t.DataType() == tensor.Int8 {
			out[i] = int32(int8(b))
		} else {
			out[i] = int32(b)
		}
	}
	return out, nil
}

// Transposes folded into a MatMul, the kernels' side of
// graph/fusetransposes.go. A transformer's attention, exported node by
// node, moves the heads around every product: Q, K and V are reshaped to
// [batch, seq, heads, d] and transposed to [batch, heads, seq, d] (K once
// more, to [batch, heads, d, seq]) before the products of every head, and
// the heads' results are transposed back to [batch, seq, heads, d] after.
// Each Transpose copies the whole activation. The matrix-product engine
// reads and writes a matrix through a row stride: a head's matrix of the
// transposed value is a strided matrix of the value before the Transpose. So a MatMul that is
// the only reader of a Transpose (or of a chain of them) reads the value
// before it in place, and a MatMul whose only reader is a Transpose writes
// the Transpose's output in place; the Transposes pass their input through
// (in a run that fuses: the fast engine, the ONNX profile, the graph's
// outputs asked for). The products and their sums are the same, element
// for element, so the result has the bits of the nodes run one by one
// (TestFoldedTransposesSameBits, graph/fusetransposes_test.go).
//
// What is read or written in place: a permutation that leaves the last
// axis last (rows with a stride, columns contiguous). Transposes that move
// an input's last axis are not folded (K^T: see FoldTransposes). At run
// time, a permutation that does not fit the value's rank, or an operand or
// product that is not a matrix, goes through the Transpose operator's own
// kernel inside the MatMul, with its errors, and is then multiplied as
// unfused.

// transposeFold is one Transpose folded into a MatMul: its operator
// version and its perm attribute (nil when absent: the axes reversed).
type transposeFold struct {
	op   opRef
	perm []int
}

// matMulFolds are the Transposes a MatMul node folded: in[k], applied in
// order, make input k from the value the run passes for it; out, applied
// in order, are applied to the product.
type matMulFolds struct {
	in  [2][]transposeFold
	out []transposeFold
}

// FoldTransposes folds the Transpose nodes before (in[k] for input k, the
// first applied first) and after (out) MatMul node mm into it, and reports
// whether it did: nothing is folded when mm is not a MatMul or one of the
// nodes is not a Transpose with a readable perm. The graph then passes
// each Transpose's input through in a run that fuses.
func FoldTransposes(mm *Node, in [2][]*Node, out []*Node) bool {
	if mm == nil || mm.OpType != "MatMul" || mm.Domain != "" || mm.folds != nil {
		return false
	}
	var f matMulFolds
	fold := func(trs []*Node) ([]transposeFold, bool) {
		var folds []transposeFold
		for _, tr := range trs {
			if tr == nil || tr.OpType != "Transpose" || tr.Domain != "" {
				return nil, false
			}
			perm, _, err := tr.intsAttr("perm", "perm")
			if err != nil {
				return nil, false
			}
			folds = append(folds, transposeFold{tr.op(), perm})
		}
		return folds, true
	}
	var ok bool
	for k := range in {
		if f.in[k], ok = fold(in[k]); !ok {
			return false
		}
		if !keepsLastAxis(f.in[k]) {
			// Read in place, the operand would be a transposed matrix,
			// which the engine packs more slowly than a Transpose's copy
			// and a plain packing take together (a head's K^T: 64 us
			// against 39 on GPT-2's [4, 64, 64] heads): left unfolded.
			f.in[k] = nil
		}
	}
	if f.out, ok = fold(out); !ok {
		return false
	}
	if len(f.in[0])+len(f.in[1])+len(f.out) == 0 {
		return false
	}
	mm.folds = &f
	return true
}

// keepsLastAxis reports whether the folds, applied in order, leave the
// last axis last: whether their perms are all given and compose to one
// that does.
func keepsLastAxis(folds []transposeFold) bool {
	if len(folds) == 0 {
		return true
	}
	r := len(folds[0].perm)
	c, ok := composePerms(folds, r)
	return ok && r >= 2 && c[r-1] == r-1
}

// stridedOperand is a MatMul operand (or its output) read or written in
// place: the matrix of each batch index starts at the sum of the index's
// coordinates times batch (one stride per batch axis of the operand),
// and its rows are ld apart.
type stridedOperand struct {
	shape []int // the operand's shape, as MatMul sees it
	batch []int
	ld    int
}

// composePerms returns the one permutation that the folds, applied in
// order to a value of rank r, make, and false when one of them does not
// fit rank r (the Transpose operator then reports it).
func composePerms(folds []transposeFold, r int) ([]int, bool) {
	c := make([]int, r)
	for i := range c {
		c[i] = i
	}
	for _, f := range folds {
		p, err := transposePerm(f.op, r, f.perm)
		if err != nil {
			return nil, false
		}
		next := make([]int, r)
		for i := range next {
			next[i] = c[p[i]]
		}
		c = next
	}
	return c, true
}

// rowMajorStrides returns the element strides of a row-major shape.
func rowMajorStrides(shape []int) []int {
	st := make([]int, len(shape))
	step := 1
	for i := len(shape) - 1; i >= 0; i-- {
		st[i] = step
		step *= shape[i]
	}
	return st
}

// stridedInput returns how a MatMul reads x transposed by perm in place,
// and false when it cannot (x of rank < 2, or perm moving x's last axis).
func stridedInput(shape, perm []int) (stridedOperand, bool) {
	r := len(shape)
	if r < 2 {
		return stridedOperand{}, false
	}
	xs := rowMajorStrides(shape)
	o := stridedOperand{shape: make([]int, r), batch: make([]int, r-2)}
	for i, p := range perm {
		o.shape[i] = shape[p]
		if i < r-2 {
			o.batch[i] = xs[p]
		}
	}
	if perm[r-1] != r-1 {
		return stridedOperand{}, false
	}
	o.ld = xs[perm[r-2]]
	o.ld = max(o.ld, 1)
	return o, true
}

// matMulFolded is matMulNode for a node with folded Transposes in a run
// that fuses: a and b are the values before the folded Transposes.
func matMulFolded(opt *Options, n *Node, a, b, res *tensor.Tensor) ([]tensor.Value, error) {
	f, op := n.folds, n.op()
	var xs [2]*tensor.Tensor
	var strided [2]*stridedOperand
	for k, x := range []*tensor.Tensor{a, b} {
		xs[k] = x
		if len(f.in[k]) == 0 {
			continue
		}
		if c, ok := composePerms(f.in[k], x.Rank()); ok {
			if s, ok := stridedInput(x.Shape(), c); ok {
				strided[k] = &s
				continue
			}
		}
		// Not read in place: the Transposes run as their nodes would.
		for _, t := range f.in[k] {
			var err error
			if xs[k], err = transpose(opt, t.op, xs[k], t.perm); err != nil {
				return nil, err
			}
		}
	}
	y, err := matMulStrided(opt, op, n, xs, strided)
	if err != nil {
		return nil, err
	}
	n.applyBias(opt, y)
	return n.finishMatMul(opt, y, res)
}

// matMulStrided is matMul with the operands strided[k] (when not nil) read
// in place from x[k], and the product written transposed by the node's
// output folds, in place when they keep its last axis last.
func matMulStrided(opt *Options, op opRef, n *Node, x [2]*tensor.Tensor, strided [2]*stridedOperand) (*tensor.Tensor, error) {
	opt = opt.orDefault()
	a, b := x[0], x[1]
	for k, name := range []string{"A", "B"} {
		if err := checkInput(op, name, x[k]); err != nil {
			return nil, err
		}
	}
	dt := a.DataType()
	if err := matMulTypes.check(op, "A", dt); err != nil {
		return nil, err
	}
	if b.DataType() != dt {
		return nil, op.errorf("type", "A is %v and B %v: both are of type T", dt, b.DataType())
	}
	shapeOf := func(k int) []int {
		if strided[k] != nil {
			return strided[k].shape
		}
		return x[k].Shape()
	}
	s, err := matmulShapes(op, shapeOf(0), shapeOf(1))
	if err != nil {
		return nil, err
	}
	// The output: written in place transposed when the folds allow it.
	outShape, outPerm := s.out, []int(nil)
	folds := n.folds.out
	if len(folds) > 0 && len(s.out) == len(s.batch)+2 {
		if c, ok := composePerms(folds, len(s.out)); ok && c[len(c)-1] == len(c)-1 {
			outPerm, folds = c, nil
			outShape = make([]int, len(c))
			for i, p := range c {
				outShape[i] = s.out[p]
			}
		}
	}
	y, err := opt.newOverwritten(op, dt, outShape)
	if err != nil {
		return nil, err
	}
	if y.Len() > 0 {
		var pb *weightPack
		if strided[1] == nil {
			pb = n.packedInput(1, b)
		}
		switch productTypeOf(dt) {
		case tensor.Float:
			err = matMulStridedAs[float32](opt, op, &s, x, strided, y, outPerm, pb)
		case tensor.Double:
			err = matMulStridedAs[float64](opt, op, &s, x, strided, y, outPerm, pb)
		case tensor.Int32:
			err = matMulStridedAs[int32](opt, op, &s, x, strided, y, outPerm, nil)
		case tensor.Int64:
			err = matMulStridedAs[int64](opt, op, &s, x, strided, y, outPerm, nil)
		case tensor.Uint32:
			err = matMulStridedAs[uint32](opt, op, &s, x, strided, y, outPerm, nil)
		case tensor.Uint64:
			err = matMulStridedAs[uint64](opt, op, &s, x, strided, y, outPerm, nil)
		}
		if err != nil {
			return nil, err
		}
	}
	// Output folds not written in place run as their nodes would.
	for _, t := range folds {
		if y, err = transpose(opt, t.op, y, t.perm); err != nil {
			return nil, err
		}
	}
	return y, nil
}

// matMulStridedAs runs the products of s in T, reading operand k through
// strided[k] (contiguous when nil) and writing y, the product transposed by
// outPerm (none when nil).
func matMulStridedAs[T gemm.Number](opt *Options, op opRef, s *matmulShape, x [2]*tensor.Tensor, strided [2]*stridedOperand, y *tensor.Tensor, outPerm []int, pb *weightPack) error {
	var data [2][]T
	for k, name := range []string{"A", "B"} {
		var err error
		if data[k], err = productInput[T](opt, op, name, x[k]); err != nil {
			return err
		}
	}
	yv, store, err := productOutput[T](opt, op, y)
	if err != nil {
		return err
	}
	m, n, k := s.m, s.n, s.k
	r := len(s.batch)
	// Each operand's element stride per axis of the broadcast batch (0
	// where it broadcasts) and its row stride.
	type view struct {
		batch []int
		ld    int
	}
	operand := func(i, cols int) view {
		v := view{batch: make([]int, r), ld: cols}
		var shape, bs []int
		if st := strided[i]; st != nil {
			shape, bs, v.ld = st.shape, st.batch, st.ld
		} else {
			shape = x[i].Shape()
			if len(shape) >= 2 {
				bs = rowMajorStrides(shape)[:len(shape)-2]
			}
		}
		nb := max(len(shape)-2, 0)
		for ax := range nb {
			if shape[ax] != 1 {
				v.batch[r-nb+ax] = bs[ax]
			}
		}
		return v
	}
	av, bv := operand(0, k), operand(1, n)
	yb := make([]int, r)
	ld := n
	if outPerm != nil {
		ys := rowMajorStrides(y.Shape())
		inv := make([]int, len(outPerm))
		for i, p := range outPerm {
			inv[p] = i
		}
		// outPerm keeps the last axis: the logical output's axis a is
		// y's axis inv[a].
		ld = ys[inv[len(outPerm)-2]]
		for ax := range r {
			yb[ax] = ys[inv[ax]]
		}
	} else {
		yb = rowMajorStrides(append(append([]int{}, s.batch...), m*n))[:r]
	}
	offsets := func(i int) (ao, bo, yo int) {
		for ax := r - 1; ax >= 0 && i > 0; ax-- {
			d := s.batch[ax]
			c := i % d
			i /= d
			ao += c * av.batch[ax]
			bo += c * bv.batch[ax]
			yo += c * yb[ax]
		}
		return ao, bo, yo
	}
	mm := gemmFor[T]()
	pp := packedFor[T](pb)
	usePacked := pp.ok() && len(x[1].Shape()) == 2
	err = s.eachProduct(opt, op, func(cfg gemm.Config, i, _, _ int) error {
		ao, bo, yo := offsets(i)
		if usePacked {
			return pp.run(cfg, false, m, n, k, 1, data[0][ao:], av.ld, 0, yv[yo:], ld)
		}
		return mm(cfg, false, false, m, n, k, 1, data[0][ao:], av.ld, data[1][bo:], bv.ld, 0, yv[yo:], ld)
	})
	if err != nil {
		return err
	}
	return store()
}

// FoldsInput reports whether MatMul node n folded the Transposes before
// its input k (FoldTransposes leaves some unfolded).
func (n *Node) FoldsInput(k int) bool {
	return n != nil && n.folds != nil && k >= 0 && k < 2 && len(n.folds.in[k]) > 0
}
