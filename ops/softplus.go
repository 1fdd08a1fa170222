// Softplus computes ln(exp(X) + 1) elementwise, as max(X, 0) + ln(1 +
// exp(-|X|)), which does not overflow for large X.
//
// Versions: 1 and 22; they differ only in the types they allow. The rule:
// [type] X's type is one the version allows. float32 is mathf.Softplus's
// float32 algorithm (Exp, then Log with Goldberg's log1p; within 3.5 ulps),
// which the reference engine states too; float16 and bfloat16 through
// float32; float64 is computed in float64.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/mathf"
	"math"
)

var softplusOp = &unaryOp{
	name: "Softplus", types: versionTypes{1: floatTypes, 22: floatBFTypes},
	kernel: fixedUnaries(float32Function(mathf.SoftplusesTo, softplus)),
}

func init() {
	register("Softplus", []int{1, 22}, [2]int{1, 1}, [2]int{1, 1}, softplusOp.node)
	declareAttrs("Softplus")
}

// softplus is ln(1 + e^x), written so that e^x never overflows.
func softplus(x float64) float64 { return math.Max(x, 0) + math.Log1p(math.Exp(-math.Abs(x))) }
