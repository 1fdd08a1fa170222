// GlobalAveragePool writes the mean of each (N, C) plane of X (N x C x D1 x
// ... x Dn): Y is N x C x 1 x ... x 1. It is ReduceMean over the spatial
// axes (globalpool.go). A plane without elements gives NaN.
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
