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

	"github.com/onnxshape/onnxshape/ops/internal/gemm"
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
	return values(y), nil
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
		broadcastC(g, cv, yv)
		beta = T(g.o.Beta)
	}
	if pp := packedFor[T](pb); pp != nil {
		err = pp(gemmConfig(opt, op), g.o.TransA, g.m, g.n, g.k, T(g.o.Alpha), av, g.lda, beta, yv, g.n)
	} else {
		err = gemmFor[T]()(gemmConfig(opt, op), g.o.TransA, g.o.TransB, g.m, g.n, g.k, T(g.o.Alpha), av, g.lda, bv, g.ldb, beta, yv, g.n)
	}
	if err != nil {
		return gemmError(op, err)
	}
	return store()
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
