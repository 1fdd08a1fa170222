// Tanh computes the hyperbolic tangent of X elementwise.
//
// Versions: 1, 6 and 13; they differ only in the types they allow (1 also
// takes consumed_inputs, which changes nothing). The rule: [type] X's type
// is one the version allows. float32 is mathf.Tanh's float32 algorithm
// (at most 2 ulps from the exact value; AVX2 and AVX-512 on amd64, a large
// call with streaming stores), which the
// reference engine states too; float16 and bfloat16 through float32;
// float64 is math.Tanh.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/mathf"
)

var tanhOp = &unaryOp{
	name: "Tanh", types: versionTypes{1: floatTypes, 6: floatTypes, 13: floatBFTypes},
	kernel: fixedUnaries(float32StreamedFunction(mathf.TanhsTo, mathf.TanhsToStreamed, math.Tanh)),
}

func init() {
	register("Tanh", []int{1, 6, 13}, [2]int{1, 1}, [2]int{1, 1}, tanhOp.node)
	declareAttrs("Tanh", consumedInputs)
}
