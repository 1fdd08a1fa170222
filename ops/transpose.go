// Transpose permutes the axes of a tensor: output axis k is input axis
// perm[k]. Without perm, or with an empty one (as the ONNX reference reads
// it), the axes are reversed.
//
// Versions: 1, 13, 21, 23, 24 and 25 differ only in the element types they
// allow. The rule, as ONNX states it (SONNX has not specified Transpose yet):
//
//	[perm] perm is a permutation of [0, r), r = rank(X): r entries, each in
//	       range (negative entries are not allowed) and none repeated
//
// The kernel is one copy plan (plans.go's permutePlan): the copy engine
// merges the axes the permutation keeps together and copies the rest in
// cache-sized tiles.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Transpose", []int{1, 13, 21, 23, 24, 25}, [2]int{1, 1}, [2]int{1, 1}, transposeNode)
}

// TransposeOptions are the parameters of Transpose.
type TransposeOptions struct {
	// Perm gives, for each output axis, the input axis it takes. nil or
	// empty reverses the axes.
	Perm []int
}

// Transpose returns data with its axes permuted (ONNX Transpose, version 25).
func Transpose(data *tensor.Tensor, o TransposeOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Transpose", 25}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return transpose(opt, op, data, o.Perm)
}

func transposeNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	x, err := n.requiredInput(in, 0, "data")
	if err != nil {
		return nil, err
	}
	perm, _, err := n.intsAttr("perm", "perm")
	if err != nil {
		return nil, err
	}
	y, err := transpose(opt, n.op(), x, perm)
	if err != nil {
		return nil, err
	}
	return opt.result(y), nil
}

func transpose(opt *Options, op opRef, x *tensor.Tensor, perm []int) (*tensor.Tensor, error) {
	if err := checkInput(op, "data", x); err != nil {
		return nil, err
	}
	if err := opt.positiveDims(op, "input data", x.Shape()); err != nil {
		return nil, err
	}
	perm, err := transposePerm(op, x.Rank(), perm)
	if err != nil {
		return nil, err
	}
	y, err := opt.orDefault().newOverwritten(op, x.DataType(), movement.Permuted(x.Shape(), perm))
	if err != nil {
		return nil, err
	}
	if err := movement.PermutePlan(x.Shape(), perm).Run(opt.moves(), y, x); err != nil {
		return nil, op.stopped(err)
	}
	return y, nil
}

// transposeShape checks the rule and returns the output shape.
func transposeShape(op opRef, in []int, perm []int) ([]int, error) {
	perm, err := transposePerm(op, len(in), perm)
	if err != nil {
		return nil, err
	}
	return movement.Permuted(in, perm), nil
}

// transposePerm checks perm against the rank and returns it, or the reversal
// of the axes when perm is empty.
func transposePerm(op opRef, rank int, perm []int) ([]int, error) {
	if len(perm) == 0 {
		perm = make([]int, rank)
		for k := range perm {
			perm[k] = rank - 1 - k
		}
		return perm, nil
	}
	if len(perm) != rank {
		return nil, op.errorf("perm", "perm %v has %d entries for an input of rank %d", perm, len(perm), rank)
	}
	seen := make([]bool, rank)
	for _, a := range perm {
		if a < 0 || a >= rank {
			return nil, op.errorf("perm", "perm %v: entry %d is outside [0, %d]", perm, a, rank-1)
		}
		if seen[a] {
			return nil, op.errorf("perm", "perm %v: axis %d appears twice", perm, a)
		}
		seen[a] = true
	}
	return perm, nil
}
