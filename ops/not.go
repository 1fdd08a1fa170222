// Not computes the logical negation of a bool tensor elementwise.
//
// Versions: 1. The rule: [type] X is bool.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/elementwise"
	"github.com/onnxshape/onnxshape/tensor"
)

var notOp = &unaryOp{
	name: "Not", types: versionTypes{1: boolTypes},
	kernel: fixedUnaries(map[tensor.DataType]unaryKernel{tensor.Bool: unarySpan[bool, bool](elementwise.BoolNot)}),
}

func init() {
	register("Not", []int{1}, [2]int{1, 1}, [2]int{1, 1}, notOp.node)
	declareAttrs("Not")
}
