// ReduceMin reduces the axes of data it is given to the smallest element; a NaN wins (no element: +inf, or the type's maximum, true for bool).
// The axes and keepdims, noop_with_empty_axes and the output shape are those
// of every Reduce* operator (reducesum.go); the engine is ops/internal/reduce.
//
// Versions: 1 (axes attribute), 11 (negative axes), 12 (int8, uint8), 13 (bfloat16), 18 (axes an optional input, noop_with_empty_axes), 20 (bool).
// Types: uint32, uint64, int32, int64, float16, float, double, bfloat16 (13+), int8, uint8 (12+), bool (20+). Integers are computed in their own type, float16 and
// bfloat16 in float32, each output accumulating its elements in row-major
// order.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/reduce"
)

var reduceMin = reduceOperator{name: "ReduceMin", kind: reduce.Min, axesInput: 18, minMax: true}

func init() { registerReduction(reduceMin, []int{1, 11, 12, 13, 18, 20}) }
