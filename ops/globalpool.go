package ops

// What GlobalAveragePool, GlobalMaxPool and GlobalLpPool share: each is a
// reduction of X (N x C x D1 x ... x Dn) over every spatial axis, the axes
// kept with length 1, run by the reduction engine (one contiguous row per
// (N, C) plane: reduce-last).

import (
	"github.com/onnxshape/onnxshape/ops/internal/reduce"
	"github.com/onnxshape/onnxshape/tensor"
)

func registerGlobalPool(name string, o reduce.Op) {
	versions := []int{1, 22}
	if o.Kind == reduce.Lp {
		versions = []int{1, 2, 22}
	}
	register(name, versions, [2]int{1, 1}, [2]int{1, 1}, func(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
		x, err := n.requiredInput(in, 0, "X")
		if err != nil {
			return nil, err
		}
		o := o
		if o.Kind == reduce.Lp {
			if o.P, err = lpPoolP(n); err != nil {
				return nil, err
			}
		}
		y, err := globalPool(opt, n.op(), x, o)
		if err != nil {
			return nil, err
		}
		return values(y), nil
	})
}

// globalPool reduces x over its spatial axes.
func globalPool(opt *Options, op opRef, x *tensor.Tensor, o reduce.Op) (*tensor.Tensor, error) {
	if !poolFloatTypeOK(op.version, x.DataType()) {
		return nil, op.errorf("type", "X is %v, which version %d does not accept", x.DataType(), op.version)
	}
	shape := x.Shape()
	if len(shape) < 3 {
		return nil, op.errorf("input-rank", "X needs at least one spatial axis after N and C, got rank %d", len(shape))
	}
	reduced := make([]bool, len(shape))
	out := append([]int{}, shape...)
	for i := 2; i < len(shape); i++ {
		reduced[i], out[i] = true, 1
	}
	return reduceTensor(opt, op, o, x, reduced, out)
}
