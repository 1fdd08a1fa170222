// GlobalAveragePool writes the mean of each (N, C) plane of X (N x C x D1 x
// ... x Dn): Y is N x C x 1 x ... x 1. It is ReduceMean over the spatial
// axes (globalPool, below). A plane without elements gives NaN.
//
// Versions: 1 (float16, float, double), 22 (bfloat16); float16 and bfloat16
// are computed in float32.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/reduce"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	registerGlobalPool("GlobalAveragePool", reduce.Op{Kind: reduce.Mean})
	declareAttrs("GlobalAveragePool")
}

// GlobalAveragePool returns the mean of each (N, C) plane of x, of shape
// N x C x 1 x ... x 1 (ONNX GlobalAveragePool, version 22).
func GlobalAveragePool(x *tensor.Tensor, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"GlobalAveragePool", 22}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return globalPool(opt, op, x, reduce.Op{Kind: reduce.Mean})
}

// What GlobalAveragePool, GlobalMaxPool and GlobalLpPool share: each is a
// reduction of X (N x C x D1 x ... x Dn) over every spatial axis, the axes
// kept with length 1, run by the reduction engine (one contiguous row per
// (N, C) plane: reduce-last).

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
