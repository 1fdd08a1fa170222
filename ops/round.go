// Round computes X rounded to the nearest integer elementwise, halves to
// even (the spec's rule, as numpy's round).
//
// Versions: 11 and 22; they differ only in the types they allow. The rule:
// [type] X's type is one the version allows. float32 is computed in float64
// and rounded once; float16 and bfloat16 through float32.

package ops

import "github.com/onnxshape/onnxshape/ops/internal/elementwise"

var roundOp = &unaryOp{
	name: "Round", types: versionTypes{11: floatTypes, 22: floatBFTypes},
	kernel: fixedUnaries(numberUnaries([8]unaryKernel{}, elementwise.RoundF32, unarySpan[float64, float64](elementwise.RoundF64))),
}

func init() {
	register("Round", []int{11, 22}, [2]int{1, 1}, [2]int{1, 1}, roundOp.node)
	declareAttrs("Round")
}
