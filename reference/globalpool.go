// GlobalAveragePool (1, 22): "consumes an input tensor X and applies
// average pooling across the values in the same channel. This is
// equivalent to AveragePool with kernel size equal to the spatial
// dimension of input tensor." GlobalMaxPool (1, 22): the same with max
// pooling. GlobalLpPool (1, 2, 22): the same with Lp pooling, p a float in
// version 1 and an int from 2 (default 2). Y is N x C x 1 x ... x 1. The
// mean is the sum (in the order of sumlanes.go) divided by the count (NaN for no element); the
// max propagates a NaN (the first) and is -inf for no element; Lp is
// (sum of |x|^p)^(1/p), each power in float64 rounded to the computing type.

package reference

import (
	"iter"
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	registerGlobalPool("GlobalAveragePool", []int{1, 22}, globalMean[float32], globalMean[float64])
	registerGlobalPool("GlobalMaxPool", []int{1, 22}, reduceMax[float32], reduceMax[float64])
	register("GlobalLpPool", []int{1, 2, 22}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		x, err := requiredInput(opOf(n), in, 0, "X")
		if err != nil {
			return nil, err
		}
		p, err := lpExponent(n)
		if err != nil {
			return nil, err
		}
		return globalPool(opt, n, x, globalLp[float32](p), globalLp[float64](p))
	})
}

func registerGlobalPool(name string, versions []int, f32 func(iter.Seq[float32]) float32, f64 func(iter.Seq[float64]) float64) {
	register(name, versions, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		x, err := requiredInput(opOf(n), in, 0, "X")
		if err != nil {
			return nil, err
		}
		return globalPool(opt, n, x, f32, f64)
	})
}

// globalPool applies f32 or f64 to the elements of each (N, C) plane.
func globalPool(opt *ops.Options, n *ops.Node, x *tensor.Tensor, f32 func(iter.Seq[float32]) float32, f64 func(iter.Seq[float64]) float64) ([]tensor.Value, error) {
	op := opOf(n)
	if !poolTypes(n.Version, x.DataType()) {
		return nil, op.errorf("type", "X is %v, which version %d does not accept", x.DataType(), n.Version)
	}
	if x.Rank() < 3 {
		return nil, op.errorf("input-rank", "X needs at least one spatial axis after N and C, got rank %d", x.Rank())
	}
	reduced := make([]bool, x.Rank())
	outShape := append([]int{}, x.Shape()...)
	for i := 2; i < x.Rank(); i++ {
		reduced[i], outShape[i] = true, 1
	}
	if err := checkSize(opt, op, x.DataType(), outShape); err != nil {
		return nil, err
	}
	if err := cancelled(opt, op); err != nil {
		return nil, err
	}
	y, err := newTensor(opt, op, x.DataType(), outShape)
	if err != nil {
		return nil, err
	}
	if x.DataType() == tensor.Double {
		err = reduceGroups(opt, op, x, y, reduced, f64)
	} else {
		err = reduceGroups(opt, op, x, y, reduced, f32)
	}
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

func globalMean[A float32 | float64](v iter.Seq[A]) A {
	return sumLanes(v) / A(count(v))
}

func globalLp[A float32 | float64](p float64) func(iter.Seq[A]) A {
	return func(v iter.Seq[A]) A {
		s := sumLanesOf(v, func(x A) A { return A(math.Pow(math.Abs(float64(x)), p)) })
		return A(math.Pow(float64(s), 1/p))
	}
}
