// Exp computes e raised to X elementwise.
//
// Versions: 1, 6 and 13; they differ only in the types they allow (1 also
// takes consumed_inputs, which changes nothing). The rule: [type] X's type
// is one the version allows. float32 is mathf.Exp's float32 algorithm
// (Softmax's exp32: within 0.9 ulps of the exact value; AVX2 and AVX-512 on amd64, a large
// call with streaming stores),
// which the reference engine states too; float16 and bfloat16 through
// float32; float64 is math.Exp.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/mathf"
	"math"
)

var expOp = &unaryOp{
	name: "Exp", types: versionTypes{1: floatTypes, 6: floatTypes, 13: floatBFTypes},
	kernel: fixedUnaries(float32StreamedFunction(mathf.ExpsTo, mathf.ExpsToStreamed, math.Exp)),
}

func init() {
	register("Exp", []int{1, 6, 13}, [2]int{1, 1}, [2]int{1, 1}, expOp.node)
	declareAttrs("Exp", consumedInputs)
}
