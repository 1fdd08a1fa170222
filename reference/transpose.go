// Transpose (ONNX Transpose 1, 13, 21, 23, 24, 25): the input with its axes
// permuted, Y[j] = X[i] where i[perm[k]] = j[k]. Without perm, or with an
// empty one, the axes are reversed. The versions differ only in the element
// types they take. The rule of ONNX (no SONNX specification yet):
//
//	[perm] perm is a permutation of [0, r): r entries, each in range, none
//	       repeated

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Transpose", []int{1, 13, 21, 23, 24, 25}, transpose)
}

func transpose(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "data")
	if err != nil {
		return nil, err
	}
	perm, _, err := intsAttr(n, "perm", "perm")
	if err != nil {
		return nil, err
	}
	if err := positiveDims(opt, op, "input data", x.Shape()); err != nil { // [DIMS]
		return nil, err
	}
	r := x.Rank()
	if len(perm) == 0 {
		perm = make([]int, r)
		for k := range perm {
			perm[k] = r - 1 - k
		}
	}
	// [perm]
	if len(perm) != r {
		return nil, op.errorf("perm", "perm %v has %d entries for an input of rank %d", perm, len(perm), r)
	}
	seen := make([]bool, r)
	for _, a := range perm {
		if a < 0 || a >= r {
			return nil, op.errorf("perm", "perm %v: entry %d is outside [0, %d]", perm, a, r-1)
		}
		if seen[a] {
			return nil, op.errorf("perm", "perm %v: axis %d appears twice", perm, a)
		}
		seen[a] = true
	}
	dY := make([]int, r)
	for k, a := range perm {
		dY[k] = x.Shape()[a]
	}
	y, err := newTensor(opt, op, x.DataType(), dY)
	if err != nil {
		return nil, err
	}
	xStrides := stridesOf(x.Shape())
	i := make([]int, r)
	if err := forEachIndexPolled(opt, opOf(n), dY, 1, func(flat int, j []int) {
		for k, a := range perm {
			i[a] = j[k]
		}
		copyElement(y, flat, x, ravel(i, xStrides))
	}); err != nil {
		return nil, err
	}
	return values(y), nil
}
