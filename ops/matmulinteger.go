// MatMulInteger is MatMul of 8-bit integers, less their zero points, in
// int32: Y = (A - a_zero_point) · (B - b_zero_point), numpy matmul's
// shapes (matmul.go).
//
// Version 10. A and a_zero_point are int8 or uint8 (T1), B and
// b_zero_point int8 or uint8 (T2), Y int32; the zero points are optional
// (0). The rules, in order:
//
//	[type]        A and B are int8 or uint8; each zero point is of its
//	              operand's type
//	[rank], [shape], [broadcast] as MatMul
//	[zero point]  a_zero_point is a scalar (per tensor), [M] (per row of
//	              A) or A's shape with its last axis 1 (per row of each
//	              matrix); b_zero_point a scalar, [N] (per column) or B's
//	              shape with its next-to-last axis 1
//
// The products are exact; their sums wrap as int32 does, as the spec
// allows ("accumulation may overflow if and only if in 32 bits").

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/gemm"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("MatMulInteger", []int{10}, [2]int{2, 4}, [2]int{1, 1}, matMulIntegerNode)
	declareAttrs("MatMulInteger")
}

func matMulIntegerNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	var t [4]*tensor.Tensor
	var err error
	for i, name := range []string{"A", "B"} {
		if t[i], err = n.requiredInput(in, i, name); err != nil {
			return nil, err
		}
	}
	for i := 2; i < 4; i++ {
		if t[i], err = n.tensorInput(in, i); err != nil {
			return nil, err
		}
	}
	y, err := matMulInteger(opt, n.op(), t[0], t[1], t[2], t[3], n.packedInput(1, t[1]))
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

// is8bit reports whether dt is int8 or uint8.
func is8bit(dt tensor.DataType) bool { return dt == tensor.Int8 || dt == tensor.Uint8 }

// matMulInteger is MatMulInteger; pb, when not nil, is B packed at load.
func matMulInteger(opt *Options, op opRef, a, b, az, bz *tensor.Tensor, pb *weightPack) (*tensor.Tensor, error) {
	opt = opt.orDefault()
	if !is8bit(a.DataType()) || !is8bit(b.DataType()) {
		return nil, op.errorf("type", "A is %v and B %v: each must be int8 or uint8", a.DataType(), b.DataType())
	}
	if az != nil && az.DataType() != a.DataType() {
		return nil, op.errorf("type", "a_zero_point is %v, A %v", az.DataType(), a.DataType())
	}
	if bz != nil && bz.DataType() != b.DataType() {
		return nil, op.errorf("type", "b_zero_point is %v, B %v", bz.DataType(), b.DataType())
	}
	s, err := matmulShapes(op, a.Shape(), b.Shape())
	if err != nil {
		return nil, err
	}
	q, err := newIntegerProduct(opt, op, &s, a, b, az, bz)
	if err != nil {
		return nil, err
	}
	q.usePacked(pb)
	y, err := opt.newOverwritten(op, tensor.Int32, s.out)
	if err != nil {
		return nil, err
	}
	if y.Len() == 0 {
		return y, nil
	}
	if err := q.run(opt, op, elems[int32](y)); err != nil {
		return nil, err
	}
	return y, nil
}

// integerProduct is the int32 product of two 8-bit operands less their
// zero points, batch by batch, that MatMulInteger and QLinearMatMul share.
type integerProduct struct {
	s            *matmulShape
	a, b         *tensor.Tensor
	aZero, bZero []int32
	aPer, bPer   int
	aBat, bBat   bool
	packed       *gemm.PackedB8 // B packed at load, nil when not
}

// usePacked takes B from p, packed at load, when it holds a 2-D B.
func (q *integerProduct) usePacked(p *weightPack) {
	if p != nil && p.i8 != nil && len(q.b.Shape()) == 2 {
		q.packed = p.i8
	}
}

// newIntegerProduct checks the zero points' shapes and reads them.
func newIntegerProduct(opt *Options, op opRef, s *matmulShape, a, b, az, bz *tensor.Tensor) (*integerProduct, error) {
	q := &integerProduct{s: s, a: a, b: b}
	var err error
	if az != nil {
		if q.aPer, q.aBat, err = productQuantLayout(op, "zero point", "a_zero_point", az.Shape(), a.Shape(), true); err != nil {
			return nil, err
		}
	}
	if bz != nil {
		if q.bPer, q.bBat, err = productQuantLayout(op, "zero point", "b_zero_point", bz.Shape(), b.Shape(), false); err != nil {
			return nil, err
		}
	}
	if q.aZero, err = zeroPoints(opt, op, az); err != nil {
		return nil, err
	}
	if q.bZero, err = zeroPoints(opt, op, bz); err != nil {
		return nil, err
	}
	return q, nil
}

// run writes the products into y (the output's int32 elements).
func (q *integerProduct) run(opt *Options, op opRef, y []int32) error {
	s := q.s
	m, n, k := s.m, s.n, s.k
	av, bv := q.a.Bytes(), q.b.Bytes()
	aSigned, bSigned := q.a.DataType() == tensor.Int8, q.b.DataType() == tensor.Int8
	if pb := q.packed; pb != nil {
		return s.eachProduct(opt, op, func(cfg gemm.Config, i, ai, bi int) error {
			return gemm.IntegerPacked(cfg, m, n, k, av[ai*m*k:(ai+1)*m*k], aSigned, k, quantSlice(q.aZero, q.aPer, q.aBat, ai),
				pb, quantSlice(q.bZero, q.bPer, q.bBat, bi), y[i*m*n:(i+1)*m*n], n)
		})
	}
	return s.eachProduct(opt, op, func(cfg gemm.Config, i, ai, bi int) error {
		return gemm.Integer(cfg, m, n, k, av[ai*m*k:(ai+1)*m*k], aSigned, k, quantSlice(q.aZero, q.aPer, q.aBat, ai),
			bv[bi*k*n:(bi+1)*k*n], bSigned, n, quantSlice(q.bZero, q.bPer, q.bBat, bi), y[i*m*n:(i+1)*m*n], n)
	})
}
