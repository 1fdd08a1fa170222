// Gemm (1, 6, 7, 9, 11, 13). ONNX Operators.md: "General Matrix
// multiplication: https://en.wikipedia.org/wiki/Basic_Linear_Algebra_Subprograms#Level_3
// A' = transpose(A) if transA else A; B' = transpose(B) if transB else B.
// Compute Y = alpha * A' * B' + beta * C, where input tensor A has shape
// (M, K) or (K, M), input tensor B has shape (K, N) or (N, K), input tensor
// C is broadcastable to shape (M, N), and output tensor Y has shape
// (M, N)." Versions 1 and 6: C is required and is (M, N) unless the
// broadcast attribute is 1; from 7, C broadcasts unidirectionally; from 11
// it is optional. Types: float16, float, double; from 9 int32, int64,
// uint32, uint64; from 13 bfloat16.
//
// The rules, in order: [type] (B and C of A's type), [rank] (A and B 2-D),
// [shape] (A' has as many columns as B' has rows), [C]. As the ONNX
// reference evaluator (op_gemm.py) computes it: with beta = 0, C is not
// read. Floats: the sum of products in float64, then alpha*s + beta*c,
// rounded once to the output type. Integers: the sum of products in the
// type, wrapping; with alpha 1 and beta 0 or 1 that sum (plus C, wrapping),
// else alpha*s + beta*c in float64 (as numpy's int array times a float
// gives) truncated toward zero, saturated to the type's range, NaN as 0.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("Gemm", []int{1, 6, 7, 9, 11, 13}, gemmKernel) }

func gemmTypeOK(version int, dt tensor.DataType) bool {
	switch dt {
	case tensor.Float16, tensor.Float, tensor.Double:
		return true
	case tensor.Int32, tensor.Int64, tensor.Uint32, tensor.Uint64:
		return version >= 9
	case tensor.BFloat16:
		return version >= 13
	}
	return false
}

func gemmKernel(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	a, err := requiredInput(op, in, 0, "A")
	if err != nil {
		return nil, err
	}
	b, err := requiredInput(op, in, 1, "B")
	if err != nil {
		return nil, err
	}
	var c *tensor.Tensor
	if n.Version < 11 {
		c, err = requiredInput(op, in, 2, "C")
	} else {
		c, err = optionalInput(op, in, 2)
	}
	if err != nil {
		return nil, err
	}
	alpha, err := n.Float("alpha", 1)
	if err != nil {
		return nil, err
	}
	beta, err := n.Float("beta", 1)
	if err != nil {
		return nil, err
	}
	transA, err := n.Int("transA", 0)
	if err != nil {
		return nil, err
	}
	transB, err := n.Int("transB", 0)
	if err != nil {
		return nil, err
	}
	broadcast := int64(1)
	if n.Version < 7 {
		if broadcast, err = n.Int("broadcast", 0); err != nil {
			return nil, err
		}
	}
	dt := a.DataType()
	if !gemmTypeOK(n.Version, dt) {
		return nil, op.errorf("type", "A is %v, which version %d does not accept", dt, n.Version)
	}
	if b.DataType() != dt || (c != nil && c.DataType() != dt) {
		return nil, op.errorf("type", "A, B and C are not all of one type")
	}
	if a.Rank() != 2 || b.Rank() != 2 {
		return nil, op.errorf("rank", "A has shape %v and B %v: both must be 2-D", a.Shape(), b.Shape())
	}
	// A'[i][p] and B'[p][j] as flat indices into A and B.
	m, k := a.Shape()[0], a.Shape()[1]
	aAt := func(i, p int) int { return i*k + p }
	if transA != 0 {
		m, k = k, m
		aAt = func(i, p int) int { return p*m + i }
	}
	kb, nn := b.Shape()[0], b.Shape()[1]
	bAt := func(p, j int) int { return p*nn + j }
	if transB != 0 {
		kb, nn = nn, kb
		bAt = func(p, j int) int { return j*kb + p }
	}
	if k != kb {
		return nil, op.errorf("shape", "A' has %d columns and B' %d rows", k, kb)
	}
	// C[i][j] as a flat index into C, broadcast to (M, N).
	var cAt func(i, j int) int
	if c != nil {
		cs := c.Shape()
		ok := len(cs) <= 2 && (broadcast != 0 || len(cs) == 2)
		for ax := 0; ok && ax < len(cs); ax++ {
			want := []int{m, nn}[2-len(cs)+ax]
			ok = cs[ax] == want || (broadcast != 0 && cs[ax] == 1)
		}
		if !ok {
			return nil, op.errorf("C", "C of shape %v does not broadcast to (M, N) = (%d, %d)", cs, m, nn)
		}
		rows, cols := 1, 1
		if len(cs) == 2 {
			rows, cols = cs[0], cs[1]
		} else if len(cs) == 1 {
			cols = cs[0]
		}
		cAt = func(i, j int) int { return min(i, rows-1)*cols + min(j, cols-1) }
	}
	if beta == 0 {
		cAt = nil
	}
	y, err := newTensor(opt, op, dt, []int{m, nn})
	if err != nil {
		return nil, err
	}
	if err := cancelled(opt, op); err != nil {
		return nil, err
	}
	if err := chargeScratch(opt, op, "the sums", m*nn, 8); err != nil {
		return nil, err
	}
	g := gemmPlain{m: m, n: nn, k: k, aAt: aAt, bAt: bAt, cAt: cAt, alpha: float64(alpha), beta: float64(beta), stop: newPoll(opt, op)}
	switch computeTypeOf(dt) {
	case tensor.Float, tensor.Double:
		storeAll(y, gemmFloats(g, a, b, c))
	case tensor.Int32:
		storeAll(y, gemmInts[int32](g, a, b, c, math.MinInt32, math.MaxInt32))
	case tensor.Int64:
		storeAll(y, gemmInts[int64](g, a, b, c, -0x1p63, 0x1p63))
	case tensor.Uint32:
		storeAll(y, gemmInts[uint32](g, a, b, c, 0, math.MaxUint32))
	case tensor.Uint64:
		storeAll(y, gemmInts[uint64](g, a, b, c, 0, 0x1p64))
	}
	if g.stop.err != nil {
		return nil, g.stop.err
	}
	return []tensor.Value{y}, nil
}

// gemmPlain is one Gemm: sizes, the maps from (i, p), (p, j) and (i, j) to
// flat indices into A, B and C (cAt nil when C is absent or beta is 0),
// and the factors.
type gemmPlain struct {
	m, n, k       int
	aAt, bAt, cAt func(int, int) int
	alpha, beta   float64
	stop          *poll // the run's cancellation, looked at every row
}

func gemmFloats(g gemmPlain, a, b, c *tensor.Tensor) []float64 {
	at := elementAs[float64]
	out := make([]float64, g.m*g.n)
	for i := range g.m {
		if g.stop.stop(g.n*g.k + 1) {
			return out
		}
		for j := range g.n {
			var s float64
			for p := range g.k {
				s += at(a, g.aAt(i, p)) * at(b, g.bAt(p, j))
			}
			y := g.alpha * s
			if g.cAt != nil {
				y += g.beta * at(c, g.cAt(i, j))
			}
			out[i*g.n+j] = y
		}
	}
	return out
}

func gemmInts[A int32 | int64 | uint32 | uint64](g gemmPlain, a, b, c *tensor.Tensor, lo, hi float64) []A {
	at := elementAs[A]
	exact := g.alpha == 1 && (g.cAt == nil || g.beta == 1)
	out := make([]A, g.m*g.n)
	for i := range g.m {
		if g.stop.stop(g.n*g.k + 1) {
			return out
		}
		for j := range g.n {
			var s A
			for p := range g.k {
				s += at(a, g.aAt(i, p)) * at(b, g.bAt(p, j))
			}
			if exact {
				if g.cAt != nil {
					s += at(c, g.cAt(i, j))
				}
				out[i*g.n+j] = s
				continue
			}
			y := g.alpha * float64(s)
			if g.cAt != nil {
				y += g.beta * float64(at(c, g.cAt(i, j)))
			}
			y = math.Trunc(y)
			switch {
			case y != y:
				out[i*g.n+j] = 0
			case y <= lo:
				out[i*g.n+j] = A(lo)
			case y >= hi:
				out[i*g.n+j] = -(A(lo) + 1) // the largest A
				if lo == 0 {
					out[i*g.n+j] = ^A(0)
				}
			default:
				out[i*g.n+j] = A(y)
			}
		}
	}
	return out
}
