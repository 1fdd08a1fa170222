// Sqrt computes the square root of X elementwise; a negative element gives
// NaN (IEEE 754).
//
// Versions: 1, 6 and 13; they differ only in the types they allow (1 also
// takes consumed_inputs, which changes nothing). The rule: [type] X's type
// is one the version allows. float32 is computed in float64 and rounded
// once; float16 and bfloat16 through float32.

package ops

import "github.com/onnxshape/onnxshape/ops/internal/elementwise"

var sqrtOp = &unaryOp{
	name: "Sqrt", types: versionTypes{1: floatTypes, 6: floatTypes, 13: floatBFTypes},
	kernel: fixedUnaries(numberUnaries([8]unaryKernel{}, elementwise.SqrtF32, unarySpan[float64, float64](elementwise.SqrtF64))),
}

func init() {
	register("Sqrt", []int{1, 6, 13}, [2]int{1, 1}, [2]int{1, 1}, sqrtOp.node)
	declareAttrs("Sqrt", consumedInputs)
}
