// ReduceMean reduces the axes of data it is given to the mean of the elements: their sum divided by their count, truncated toward zero for the integer types (no element: NaN, or 0 for an integer type).
// The axes and keepdims, noop_with_empty_axes and the output shape are those
// of every Reduce* operator (reducesum.go); the engine is ops/internal/reduce.
//
// Versions: 1 (axes attribute), 11 (negative axes), 13 (bfloat16), 18 (axes an optional input, noop_with_empty_axes).
// Types: uint32, uint64, int32, int64, float16, float, double, bfloat16 (13+). Integers are computed in their own type, float16 and
// bfloat16 in float32, each output accumulating its elements in row-major
// order.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/reduce"
	"github.com/onnxshape/onnxshape/tensor"
)

var reduceMean = reduceOperator{name: "ReduceMean", kind: reduce.Mean, axesInput: 18, minMax: false}

func init() { registerReduction(reduceMean, []int{1, 11, 13, 18}) }

// ReduceMean returns the mean of the elements: their sum divided by their count, truncated toward zero for the integer types of x over o.Axes (ONNX ReduceMean, version 18).
func ReduceMean(x *tensor.Tensor, o ReduceOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"ReduceMean", 18}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return reduceMean.run(opt, op, x, o)
}
