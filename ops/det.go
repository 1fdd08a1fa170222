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
// matrices are shared among the cores, each factored in a float64 copy
// charged to the run.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/convert"

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
	// X in float64 (unless it is already), one matrix to factor per core,
	// and the determinants.
	n := mulCounts(mulCounts(m, m), opt.threads()) + count
	if x.DataType() != tensor.Double {
		n = addCounts(n, x.Len())
	}
	if err := opt.scratch(op, "the matrices in float64", n, 8); err != nil {
		return nil, err
	}
	all, err := convert.LoadFloatsPolled[float64](opt.env.Ctx, x)
	if err != nil {
		return nil, op.stopped(err)
	}
	dets := make([]float64, count)
	err = parallelRange(opt, count, mulCounts(count, mulCounts(m, mulCounts(m, m))), func(lo, hi int) error {
		lu := make([]float64, m*m)
		for i := lo; i < hi; i++ {
			if err := opt.cancelled(); err != nil {
				return err
			}
			copy(lu, all[i*m*m:(i+1)*m*m])
			dets[i] = luDeterminant(lu, m)
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

// luDeterminant factors the m×m row-major matrix a in place (LU with
// partial pivoting) and returns its determinant.
func luDeterminant(a []float64, m int) float64 {
	d := 1.0
	for j := range m {
		p := j
		for i := j + 1; i < m; i++ {
			if math.Abs(a[i*m+j]) > math.Abs(a[p*m+j]) {
				p = i
			}
		}
		if a[p*m+j] == 0 {
			return 0
		}
		if p != j {
			for c := range m {
				a[p*m+c], a[j*m+c] = a[j*m+c], a[p*m+c]
			}
			d = -d
		}
		for i := j + 1; i < m; i++ {
			f := a[i*m+j] / a[j*m+j]
			for c := j + 1; c < m; c++ {
				a[i*m+c] -= f * a[j*m+c]
			}
		}
		d *= a[j*m+j]
	}
	return d
}
