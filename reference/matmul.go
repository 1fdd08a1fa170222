// MatMul (1, 9, 13). ONNX Operators.md: "Matrix product that behaves like
// numpy.matmul." numpy.matmul: "If either argument is N-D, N > 2, it is
// treated as a stack of matrices residing in the last two indexes and
// broadcast accordingly. If the first argument is 1-D, it is promoted to a
// matrix by prepending a 1 to its dimensions. After matrix multiplication
// the prepended 1 is removed. If the second argument is 1-D, it is
// promoted to a matrix by appending a 1 to its dimensions. After matrix
// multiplication the appended 1 is removed." Scalars are refused.
//
// Types: float16, float, double; from 9 int32, int64, uint32, uint64; from
// 13 bfloat16. The rules, in order: [type], [rank] (no scalar), [shape]
// (A's columns are B's rows), [broadcast] (the batch axes broadcast).
// Each output element is the sum over p of A[..., i, p]*B[..., p, j]:
// floats in float64, rounded once to the output type; integers in their
// own type, wrapping as numpy does. MatMulInteger and QLinearMatMul use
// the same shapes (matmulIndex).
//
// Under the SONNX profile (matmul.md, "Op version 13"): "[R1] Input
// tensors A and B have 2 dimensions" (A [C1] and B [C1], "The number of
// spatial axes of tensor A is 2", sonnxrule.MatMulRankA and MatMulRankB)
// and A [C2] "dA_1 = dB_0" (sonnxrule.MatMulInner). Its sum is the
// mathematical one; this kernel's, in float64 rounded once, is what both
// engines run under the profile.

package reference

import (
	"github.com/onnxshape/onnxshape/internal/sonnxrule"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("MatMul", []int{1, 9, 13}, matMulKernel) }

func matMulTypeOK(version int, dt tensor.DataType) bool {
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

func matMulKernel(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	a, err := requiredInput(op, in, 0, "A")
	if err != nil {
		return nil, err
	}
	b, err := requiredInput(op, in, 1, "B")
	if err != nil {
		return nil, err
	}
	if !matMulTypeOK(n.Version, a.DataType()) {
		return nil, op.errorf("type", "A is %v, which version %d does not accept", a.DataType(), n.Version)
	}
	if b.DataType() != a.DataType() {
		return nil, op.errorf("type", "A is %v and B %v", a.DataType(), b.DataType())
	}
	if sonnx(opt) {
		as, bs := a.Shape(), b.Shape()
		switch {
		case len(as) != 2:
			return nil, op.errorf(sonnxrule.MatMulRankA, "A has shape %v, not 2 dimensions", as)
		case len(bs) != 2:
			return nil, op.errorf(sonnxrule.MatMulRankB, "B has shape %v, not 2 dimensions", bs)
		case as[1] != bs[0]:
			return nil, op.errorf(sonnxrule.MatMulInner, "dA_1 = %d and dB_0 = %d differ", as[1], bs[0])
		}
	}
	mi, err := matmulIndex(op, a.Shape(), b.Shape())
	if err != nil {
		return nil, err
	}
	y, err := newTensor(opt, op, a.DataType(), mi.out)
	if err != nil {
		return nil, err
	}
	if err := cancelled(opt, op); err != nil {
		return nil, err
	}
	if err := chargeScratch(opt, op, "the sums", y.Len(), 8); err != nil {
		return nil, err
	}
	stop := newPoll(opt, op)
	var v any
	switch computeTypeOf(a.DataType()) {
	case tensor.Float, tensor.Double:
		v = matMulPlain[float64](stop, mi, a, b)
	case tensor.Int32:
		v = matMulPlain[int32](stop, mi, a, b)
	case tensor.Int64:
		v = matMulPlain[int64](stop, mi, a, b)
	case tensor.Uint32:
		v = matMulPlain[uint32](stop, mi, a, b)
	case tensor.Uint64:
		v = matMulPlain[uint64](stop, mi, a, b)
	}
	switch v := v.(type) {
	case []float64:
		storeAll(y, v)
	case []int32:
		storeAll(y, v)
	case []int64:
		storeAll(y, v)
	case []uint32:
		storeAll(y, v)
	case []uint64:
		storeAll(y, v)
	}
	if stop.err != nil {
		return nil, stop.err
	}
	return []tensor.Value{y}, nil
}

// matmulShapes are numpy matmul's shapes: A and B promoted to at least
// matrices (as, bs), the output shape, and the output shape before the
// promoted axes are removed (full: batch, M, N).
type matmulShapes struct {
	as, bs, full, out []int
	k                 int
}

// matmulIndex checks the shapes of A and B as numpy matmul does.
func matmulIndex(op opRef, a, b []int) (matmulShapes, error) {
	if len(a) == 0 || len(b) == 0 {
		return matmulShapes{}, op.errorf("rank", "A has shape %v and B %v: numpy matmul takes no scalar", a, b)
	}
	s := matmulShapes{as: a, bs: b}
	if len(a) == 1 {
		s.as = []int{1, a[0]}
	}
	if len(b) == 1 {
		s.bs = []int{b[0], 1}
	}
	ra, rb := len(s.as), len(s.bs)
	s.k = s.as[ra-1]
	if s.bs[rb-2] != s.k {
		return matmulShapes{}, op.errorf("shape", "A of shape %v has %d columns, B of shape %v has %d rows", a, s.k, b, s.bs[rb-2])
	}
	r := max(ra, rb)
	s.full = make([]int, r)
	for i := 0; i < r-2; i++ {
		da, db := 1, 1
		if j := i - (r - ra); j >= 0 {
			da = s.as[j]
		}
		if j := i - (r - rb); j >= 0 {
			db = s.bs[j]
		}
		switch {
		case da == db || db == 1:
			s.full[i] = da
		case da == 1:
			s.full[i] = db
		default:
			return matmulShapes{}, op.errorf("broadcast", "the batch axes of A %v and B %v do not broadcast (%d against %d)", a, b, da, db)
		}
	}
	s.full[r-2], s.full[r-1] = s.as[ra-2], s.bs[rb-1]
	s.out = append([]int{}, s.full[:r-2]...)
	if len(a) > 1 {
		s.out = append(s.out, s.full[r-2])
	}
	if len(b) > 1 {
		s.out = append(s.out, s.full[r-1])
	}
	return s, nil
}

// operandIndex returns the flat index into an operand of promoted shape
// s (right-aligned with the output's full index, broadcast axes read at 0)
// of the element at row i and column j of the matrix the output's batch
// index idx (the full output index; its last two entries are ignored)
// selects.
func operandIndex(s, idx []int, i, j int) int {
	flat, stride := 0, 1
	for ax := len(s) - 1; ax >= 0; ax-- {
		var x int
		switch ax {
		case len(s) - 1:
			x = j
		case len(s) - 2:
			x = i
		default:
			if s[ax] != 1 {
				x = idx[ax+len(idx)-len(s)]
			}
		}
		flat += x * stride
		stride *= s[ax]
	}
	return flat
}

// matMulPlain returns the output's elements: for each output index, the
// sum over p of A[batch, i, p] * B[batch, p, j].
func matMulPlain[A computeNumber](stop *poll, s matmulShapes, a, b *tensor.Tensor) []A {
	out := make([]A, numElements(s.full))
	r := len(s.full)
	forEachIndexWhile(s.full, func(flat int, idx []int) bool {
		i, j := idx[r-2], idx[r-1]
		var sum A
		for p := range s.k {
			sum += elementAs[A](a, operandIndex(s.as, idx, i, p)) * elementAs[A](b, operandIndex(s.bs, idx, p, j))
		}
		out[flat] = sum
		return !stop.stop(s.k + 1)
	})
	return out
}
