// ReduceSum reduces the axes of data it is given to the sum of the elements (0 for none).
// The axes and keepdims, noop_with_empty_axes and the output shape are those
// of every Reduce* operator (reduction.go); the engine is ops/internal/reduce.
//
// Versions: 1 (axes attribute), 11 (negative axes), 13 (axes an optional input, noop_with_empty_axes, bfloat16).
// Types: uint32, uint64, int32, int64, float16, float, double, bfloat16 (13+). Integers are computed in their own type, float16 and
// bfloat16 in float32, each output accumulating its elements in row-major
// order.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/reduce"
	"github.com/onnxshape/onnxshape/tensor"
)

var reduceSum = reduceOperator{name: "ReduceSum", kind: reduce.Sum, axesInput: 13, minMax: false}

func init() { registerReduction(reduceSum, []int{1, 11, 13}) }

// ReduceSum returns the sum of the elements of x over o.Axes (ONNX ReduceSum, version 13).
func ReduceSum(x *tensor.Tensor, o ReduceOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"ReduceSum", 13}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return reduceSum.run(opt, op, x, o)
}
