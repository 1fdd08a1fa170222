// MatMulInteger (10). ONNX Operators.md: "Matrix product that behaves like
// numpy.matmul. The production MUST never overflow. The accumulation may
// overflow if and only if in 32 bits." Y = (A - a_zero_point) ·
// (B - b_zero_point) in int32. A, a_zero_point: int8 or uint8; B,
// b_zero_point: int8 or uint8; the zero points are optional (0).
//
// "a_zero_point ... It could be a scalar or N-D tensor. Scalar refers to
// per tensor quantization whereas N-D refers to per row quantization. If
// the input is 2D of shape [M, K] then zero point tensor may be an M
// element vector [zp_1, zp_2, ..., zp_M]. If the input is N-D tensor with
// shape [D1, D2, M, K] then zero point tensor may have shape [D1, D2, M,
// 1]." b_zero_point likewise per column: N elements, or [D1, D2, 1, N].
//
// The rules, in order: [type], then MatMul's [rank], [shape], [broadcast],
// then [zero point] (the shapes above).

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("MatMulInteger", []int{10}, matMulIntegerKernel) }

func is8bitType(dt tensor.DataType) bool { return dt == tensor.Int8 || dt == tensor.Uint8 }

func matMulIntegerKernel(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	a, err := requiredInput(op, in, 0, "A")
	if err != nil {
		return nil, err
	}
	b, err := requiredInput(op, in, 1, "B")
	if err != nil {
		return nil, err
	}
	az, err := optionalInput(op, in, 2)
	if err != nil {
		return nil, err
	}
	bz, err := optionalInput(op, in, 3)
	if err != nil {
		return nil, err
	}
	if !is8bitType(a.DataType()) || !is8bitType(b.DataType()) {
		return nil, op.errorf("type", "A is %v and B %v: each must be int8 or uint8", a.DataType(), b.DataType())
	}
	if (az != nil && az.DataType() != a.DataType()) || (bz != nil && bz.DataType() != b.DataType()) {
		return nil, op.errorf("type", "a zero point is not of its input's type")
	}
	s, err := matmulIndex(op, a.Shape(), b.Shape())
	if err != nil {
		return nil, err
	}
	azAt, err := quantIndex(op, "zero point", az, a.Shape(), s, true)
	if err != nil {
		return nil, err
	}
	bzAt, err := quantIndex(op, "zero point", bz, b.Shape(), s, false)
	if err != nil {
		return nil, err
	}
	y, err := newTensor(opt, op, tensor.Int32, s.out)
	if err != nil {
		return nil, err
	}
	if err := cancelled(opt, op); err != nil {
		return nil, err
	}
	acc, err := integerProducts(opt, op, s, a, b, az, bz, azAt, bzAt)
	if err != nil {
		return nil, err
	}
	for i, v := range acc {
		setElementAs(y, i, v)
	}
	return []tensor.Value{y}, nil
}

// quantIndex checks the shape of a per-tensor, per-row (of A) or
// per-column (of B) parameter p of an operand of shape x, and returns the
// map from an output's full index (batch, i, j) to the flat index into p
// of the value that element uses; nil p is per tensor.
func quantIndex(op opRef, rule string, p *tensor.Tensor, x []int, s matmulShapes, perRow bool) (func(idx []int) int, error) {
	if p == nil {
		return func([]int) int { return 0 }, nil
	}
	ps := p.Shape()
	r := len(s.full)
	count := 1
	if len(x) >= 2 {
		count = x[len(x)-1]
		if perRow {
			count = x[len(x)-2]
		}
	}
	along := func(idx []int) int {
		if perRow {
			return idx[r-2]
		}
		return idx[r-1]
	}
	switch {
	case len(ps) == 0 || (len(ps) == 1 && ps[0] == 1):
		return func([]int) int { return 0 }, nil
	case len(ps) == 1 && ps[0] == count:
		return along, nil
	case len(ps) == len(x) && len(x) >= 2:
		ok := true
		for i, d := range ps {
			want := x[i]
			if (perRow && i == len(x)-1) || (!perRow && i == len(x)-2) {
				want = 1
			}
			ok = ok && d == want
		}
		if ok {
			return func(idx []int) int {
				if perRow {
					return operandIndex(ps, idx, idx[r-2], 0)
				}
				return operandIndex(ps, idx, 0, idx[r-1])
			}, nil
		}
	}
	return nil, op.errorf(rule, "shape %v does not fit an operand of shape %v", ps, x)
}

// integerProducts returns, for each element of the output (full index
// batch, i, j), the sum over p of (A[i, p] - a_zero_point) * (B[p, j] -
// b_zero_point) in int32, wrapping. The operands' elements are read as
// they are used; the sums are charged to the run.
func integerProducts(opt *ops.Options, op opRef, s matmulShapes, a, b, az, bz *tensor.Tensor, azAt, bzAt func([]int) int) ([]int32, error) {
	zero := func(z *tensor.Tensor, at int) int32 {
		if z == nil {
			return 0
		}
		return elementAs[int32](z, at)
	}
	r := len(s.full)
	if err := chargeScratch(opt, op, "the int32 sums", numElements(s.full), 4); err != nil {
		return nil, err
	}
	out := make([]int32, numElements(s.full))
	stop := newPoll(opt, op)
	forEachIndexWhile(s.full, func(flat int, idx []int) bool {
		i, j := idx[r-2], idx[r-1]
		za, zb := zero(az, azAt(idx)), zero(bz, bzAt(idx))
		var sum int32
		for p := range s.k {
			sum += (elementAs[int32](a, operandIndex(s.as, idx, i, p)) - za) * (elementAs[int32](b, operandIndex(s.bs, idx, p, j)) - zb)
		}
		out[flat] = sum
		return !stop.stop(s.k + 1)
	})
	return out, stop.err
}
