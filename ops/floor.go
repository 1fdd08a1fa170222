// Floor computes the greatest integer not above X elementwise; NaN and
// infinities stay.
//
// Versions: 1, 6 and 13; they differ only in the types they allow (1 also
// takes consumed_inputs, which changes nothing). The rule: [type] X's type
// is one the version allows. float32 is computed in float64 and rounded
// once; float16 and bfloat16 through float32.

package ops

import "github.com/onnxshape/onnxshape/ops/internal/elementwise"

var floorOp = &unaryOp{
	name: "Floor", types: versionTypes{1: floatTypes, 6: floatTypes, 13: floatBFTypes},
	kernel: fixedUnaries(numberUnaries([8]unaryKernel{}, elementwise.FloorF32, unarySpan[float64, float64](elementwise.FloorF64))),
}

func init() {
	register("Floor", []int{1, 6, 13}, [2]int{1, 1}, [2]int{1, 1}, floorOp.node)
	declareAttrs("Floor", consumedInputs)
}
