// MatMul is numpy's matmul: the product of the last two axes of A and B,
// the axes before them (the batch) broadcast; a 1-D A is a row [1, K] and
// a 1-D B a column [K, 1], whose added axis is dropped from the result.
//
// Versions: 1 (float16, float, double), 9 (adds int32, int64, uint32,
// uint64) and 13 (adds bfloat16). The rules, in order (matprod.go):
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
	"github.com/onnxshape/onnxshape/ops/internal/gemm"
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
	return matMul(opt, op, a, b, nil)
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
	y, err := matMul(opt, n.op(), a, b, n.packedInput(1, b))
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

// matMul is MatMul; pb, when not nil, is B packed at load.
func matMul(opt *Options, op opRef, a, b *tensor.Tensor, pb *weightPack) (*tensor.Tensor, error) {
	opt = opt.orDefault()
	if err := checkInput(op, "A", a); err != nil {
		return nil, err
	}
	if err := checkInput(op, "B", b); err != nil {
		return nil, err
	}
	dt := a.DataType()
	if err := matMulTypes.check(op, "A", dt); err != nil {
		return nil, err
	}
	if b.DataType() != dt {
		return nil, op.errorf("type", "A is %v and B %v: both are of type T", dt, b.DataType())
	}
	if err := matMulSONNX(opt, op, a, b); err != nil {
		return nil, err
	}
	s, err := matmulShapes(op, a.Shape(), b.Shape())
	if err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, dt, s.out)
	if err != nil {
		return nil, err
	}
	switch productTypeOf(dt) {
	case tensor.Float:
		err = matMulAs[float32](opt, op, &s, a, b, y, pb)
	case tensor.Double:
		err = matMulAs[float64](opt, op, &s, a, b, y, pb)
	case tensor.Int32:
		err = matMulAs[int32](opt, op, &s, a, b, y, nil)
	case tensor.Int64:
		err = matMulAs[int64](opt, op, &s, a, b, y, nil)
	case tensor.Uint32:
		err = matMulAs[uint32](opt, op, &s, a, b, y, nil)
	case tensor.Uint64:
		err = matMulAs[uint64](opt, op, &s, a, b, y, nil)
	}
	if err != nil {
		return nil, err
	}
	return y, nil
}

// matMulAs runs the products of s in T.
func matMulAs[T gemm.Number](opt *Options, op opRef, s *matmulShape, a, b, y *tensor.Tensor, pb *weightPack) error {
	if y.Len() == 0 {
		return nil
	}
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
	mm := gemmFor[T]()
	m, n, k := s.m, s.n, s.k
	if pp := packedFor[T](pb); pp != nil && len(b.Shape()) == 2 {
		// B, the model's constant weights, was packed at load.
		err = s.eachProduct(opt, op, func(cfg gemm.Config, i, ai, bi int) error {
			return pp(cfg, false, m, n, k, 1, av[ai*m*k:(ai+1)*m*k], k, 0, yv[i*m*n:(i+1)*m*n], n)
		})
		if err != nil {
			return err
		}
		return store()
	}
	err = s.eachProduct(opt, op, func(cfg gemm.Config, i, ai, bi int) error {
		return mm(cfg, false, false, m, n, k, 1, av[ai*m*k:(ai+1)*m*k], k, bv[bi*k*n:(bi+1)*k*n], n, 0, yv[i*m*n:(i+1)*m*n], n)
	})
	if err != nil {
		return err
	}
	return store()
}
