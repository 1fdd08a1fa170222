// ReduceLogSumExp reduces the axes of data it is given to the natural log of the sum of the exponentials, computed as m + log(sum(exp(x - m))) with m the largest element so that large elements do not overflow (-inf for none).
// The axes and keepdims, noop_with_empty_axes and the output shape are those
// of every Reduce* operator (reducesum.go); the engine is ops/internal/reduce.
//
// Versions: 1 (axes attribute), 11 (negative axes), 13 (bfloat16), 18 (axes an optional input, noop_with_empty_axes).
// Types: uint32, uint64, int32, int64, float16, float, double, bfloat16 (13+). Integers are computed in their own type, float16 and
// bfloat16 in float32, each output accumulating its elements in row-major
// order (the lane order of reference/sumlanes.go). The terms of float32 are
// exp32(x - m), the softmax family's exponential, sixteen at a time; the
// algorithm and its error bound are reference/reducelogsumexp.go's.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/reduce"
)

var reduceLogSumExp = reduceOperator{name: "ReduceLogSumExp", kind: reduce.LogSumExp, axesInput: 18, minMax: false}

func init() { registerReduction(reduceLogSumExp, []int{1, 11, 13, 18}) }
