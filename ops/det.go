// Det computes the determinant of each square matrix of X's last two axes:
// X of shape [*, M, M] gives Y of shape [*].
//
// Versions: 11 (float16, float, double) and 22 (adds bfloat16). The rules,
// in order:
//
//	[type]  X's type is one the version allows
//	[rank]  X has rank 2 or more
//	[shape] its last two axes are equal
//
// Each determinant is the product of the pivots of an LU factorization
// with partial pivoting (the first largest |pivot| of the column, rows
// swapped, each swap changing the sign), computed in float64 and rounded
// once to X's type; a column without a nonzero pivot gives 0. The
// matrices are shared among the cores, each widened into a float64 copy
// (charged to the run) and factored there.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/ops/internal/linalg"

	"github.com/onnxshape/onnxshape/tensor"
)

var detTypes = versionTypes{11: floatTypes, 22: floatBFTypes}

func init() {
	register("Det", []int{11, 22}, [2]int{1, 1}, [2]int{1, 1}, detNode)
	declareAttrs("Det")
}

// Det returns the determinants of the square matrices of x's last two
// axes (ONNX Det, version 22).
func Det(x *tensor.Tensor, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Det", 22}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return det(opt, op, x)
}

func detNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	y, err := det(opt, n.op(), x)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

// detShape checks the rules and returns the output shape and M.
func detShape(op opRef, x *tensor.Tensor) ([]int, int, error) {
	if err := detTypes.check(op, "X", x.DataType()); err != nil {
		return nil, 0, err
	}
	s := x.Shape()
	if len(s) < 2 {
		return nil, 0, op.errorf("rank", "X has shape %v: a determinant needs a matrix", s)
	}
	if s[len(s)-1] != s[len(s)-2] {
		return nil, 0, op.errorf("shape", "X has shape %v: its matrices are not square", s)
	}
	return append([]int{}, s[:len(s)-2]...), s[len(s)-1], nil
}

func det(opt *Options, op opRef, x *tensor.Tensor) (*tensor.Tensor, error) {
	opt = opt.orDefault()
	if err := checkInput(op, "X", x); err != nil {
		return nil, err
	}
	out, m, err := detShape(op, x)
	if err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, x.DataType(), out)
	if err != nil {
		return nil, err
	}
	count := y.Len()
	if count == 0 {
		return y, nil
	}
	// One matrix in float64 per core, and the determinants: each matrix is
	// widened from X as it is factored, never X whole (the large batches
	// are many small matrices, where a float64 copy of X costs more than
	// the factorizations).
	n := addCounts(mulCounts(mulCounts(m, m), opt.threads()), count)
	if err := opt.scratch(op, "the matrices in float64", n, 8); err != nil {
		return nil, err
	}
	dets := make([]float64, count)
	mm := m * m
	err = parallelRange(opt, count, mulCounts(count, mulCounts(m, mulCounts(m, m))), func(lo, hi int) error {
		if m == 8 && detVector(opt, x, dets, lo, hi) {
			return opt.cancelled()
		}
		lu := make([]float64, mm)
		for i := lo; i < hi; i++ {
			if i&255 == 0 || mm > 4096 {
				if err := opt.cancelled(); err != nil {
					return err
				}
			}
			convert.DecodeFloats(lu, x, i*mm)
			dets[i] = linalg.LUDeterminant(lu, m)
		}
		return nil
	})
	if err != nil {
		return nil, op.stopped(err)
	}
	if err := convert.StoreFloats(y, dets); err != nil {
		return nil, op.wrap("type", err, "Y")
	}
	return y, nil
}

// detVector sets dets[lo:hi] to the determinants of x's 8×8 matrices lo to
// hi with the vector kernel, from X's float32 or float64 storage, and
// reports whether it could; it looks at the run's context every 256
// matrices.
func detVector(opt *Options, x *tensor.Tensor, dets []float64, lo, hi int) bool {
	const step = 256
	done := false
	for at := lo; at < hi; at += step {
		end := min(at+step, hi)
		if at > lo && opt.cancelled() != nil {
			return true
		}
		switch x.DataType() {
		case tensor.Float:
			done = linalg.Det8(dets[at:end], asElems[float32](x.Bytes())[64*at:64*end])
		case tensor.Double:
			done = linalg.Det8(dets[at:end], asElems[float64](x.Bytes())[64*at:64*end])
		}
		if !done {
			return false
		}
	}
	return done
}
