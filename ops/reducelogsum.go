// ReduceLogSum reduces the axes of data it is given to the natural log of the sum (-inf for none; integers: truncated and saturated).
// The axes and keepdims, noop_with_empty_axes and the output shape are those
// of every Reduce* operator (reducesum.go); the engine is ops/internal/reduce.
//
// Versions: 1 (axes attribute), 11 (negative axes), 13 (bfloat16), 18 (axes an optional input, noop_with_empty_axes).
// Types: uint32, uint64, int32, int64, float16, float, double, bfloat16 (13+). Integers are computed in their own type, float16 and
// bfloat16 in float32, each output accumulating its elements in row-major
// order (the lane order of reference/sumlanes.go). The log of a float32 sum
// is log32, Cephes' logf in float32 steps (reference/reducelogsum.go,
// within 1.5 ulps), sixteen outputs at a time.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/reduce"
)

var reduceLogSum = reduceOperator{name: "ReduceLogSum", kind: reduce.LogSum, axesInput: 18, minMax: false}

func init() { registerReduction(reduceLogSum, []int{1, 11, 13, 18}) }
