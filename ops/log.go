// Log computes the natural logarithm of X elementwise; 0 gives -Inf and a
// negative element NaN (IEEE 754).
//
// Versions: 1, 6 and 13; they differ only in the types they allow (1 also
// takes consumed_inputs, which changes nothing). The rule: [type] X's type
// is one the version allows. float32 is mathf.Log's float32 algorithm
// (Cephes' logf: within 1.5 ulps of the exact value, 0.78 measured; AVX2
// on amd64), which the reference engine states too; float16 and bfloat16
// through float32; float64 is math.Log.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/mathf"
	"math"
)

var logOp = &unaryOp{
	name: "Log", types: versionTypes{1: floatTypes, 6: floatTypes, 13: floatBFTypes},
	kernel: fixedUnaries(float32Function(mathf.LogsTo, math.Log)),
}

func init() {
	register("Log", []int{1, 6, 13}, [2]int{1, 1}, [2]int{1, 1}, logOp.node)
	declareAttrs("Log", consumedInputs)
}
