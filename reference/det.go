// Det (11, 22). ONNX Operators.md: "Det calculates determinant of a square
// matrix or batches of square matrices. Det takes one input tensor of
// shape [*, M, M], where * is zero or more batch dimensions, and the
// inner-most 2 dimensions form square matrices. The output is a tensor of
// shape [*], containing the determinants of all input submatrices."
// Types: float16, float, double; from 22 bfloat16.
//
// The rules, in order: [type], [rank] (2 or more), [shape] (the last two
// axes equal). As numpy.linalg.det, which the ONNX reference evaluator
// calls, computes it (LAPACK getrf): Gaussian elimination with partial
// pivoting (in each column the first row of largest magnitude at or below
// the diagonal is swapped up, each swap changing the sign), the
// determinant the signed product of the pivots, in float64, rounded once
// to X's type; a column with no nonzero pivot gives 0, and an empty
// matrix 1.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() { register("Det", []int{11, 22}, detKernel) }

func detKernel(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "X")
	if err != nil {
		return nil, err
	}
	switch dt := x.DataType(); {
	case dt == tensor.Float16 || dt == tensor.Float || dt == tensor.Double:
	case dt == tensor.BFloat16 && n.Version >= 22:
	default:
		return nil, op.errorf("type", "X is %v, which version %d does not accept", dt, n.Version)
	}
	s := x.Shape()
	if len(s) < 2 {
		return nil, op.errorf("rank", "X has shape %v", s)
	}
	m := s[len(s)-1]
	if s[len(s)-2] != m {
		return nil, op.errorf("shape", "X has shape %v: its matrices are not square", s)
	}
	out := s[:len(s)-2]
	y, err := newTensor(opt, op, x.DataType(), out)
	if err != nil {
		return nil, err
	}
	if err := cancelled(opt, op); err != nil {
		return nil, err
	}
	if err := chargeScratch(opt, op, "one matrix in float64", m*m, 8); err != nil {
		return nil, err
	}
	stop := newPoll(opt, op)
	a := make([][]float64, m)
	for i := range a {
		a[i] = make([]float64, m)
	}
	for b := range y.Len() {
		for i := range a {
			for j := range a[i] {
				a[i][j] = elementAs[float64](x, (b*m+i)*m+j)
			}
		}
		setElementAs(y, b, eliminate(a))
		if stop.stop(m*m*m + 1) {
			return nil, stop.err
		}
	}
	return []tensor.Value{y}, nil
}

// eliminate reduces the square matrix a (rows, modified) to upper
// triangular form and returns its determinant.
func eliminate(a [][]float64) float64 {
	det := 1.0
	for col := range a {
		pivot := col
		for row := col + 1; row < len(a); row++ {
			if math.Abs(a[row][col]) > math.Abs(a[pivot][col]) {
				pivot = row
			}
		}
		if a[pivot][col] == 0 {
			return 0
		}
		if pivot != col {
			a[pivot], a[col] = a[col], a[pivot]
			det = -det
		}
		for row := col + 1; row < len(a); row++ {
			f := a[row][col] / a[col][col]
			for c := col + 1; c < len(a); c++ {
				a[row][c] -= f * a[col][c]
			}
		}
		det *= a[col][col]
	}
	return det
}
