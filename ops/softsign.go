// Softsign computes X/(1+|X|) elementwise.
//
// Versions: 1 and 22; they differ only in the types they allow. The rule:
// [type] X's type is one the version allows. float32 is X/(1+|X|) in
// float32 (mathf.Softsign: within 2 ulps; AVX2 and AVX-512 on amd64, a large
// call with streaming stores), which the
// reference engine states too; float16 and bfloat16 through float32;
// float64 in float64.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/mathf"
	"math"
)

var softsignOp = &unaryOp{
	name: "Softsign", types: versionTypes{1: floatTypes, 22: floatBFTypes},
	kernel: fixedUnaries(float32StreamedFunction(mathf.SoftsignsTo, mathf.SoftsignsToStreamed, func(x float64) float64 { return x / (1 + math.Abs(x)) })),
}

func init() {
	register("Softsign", []int{1, 22}, [2]int{1, 1}, [2]int{1, 1}, softsignOp.node)
	declareAttrs("Softsign")
}
