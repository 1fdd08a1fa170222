// Mish computes X*tanh(softplus(X)) elementwise.
//
// Versions: 18 and 22; they differ only in the types they allow. The rule:
// [type] X's type is one the version allows. float32 is mathf.Mish's
// float32 algorithm (X * Tanh(Softplus(X)); within 5 ulps), which the
// reference engine states too; float16 and bfloat16 through float32;
// float64 is computed in float64.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/mathf"
	"math"
)

var mishOp = &unaryOp{
	name: "Mish", types: versionTypes{18: floatTypes, 22: floatBFTypes},
	kernel: fixedUnaries(float32Function(mathf.MishesTo, func(x float64) float64 { return x * math.Tanh(softplus(x)) })),
}

func init() {
	register("Mish", []int{18, 22}, [2]int{1, 1}, [2]int{1, 1}, mishOp.node)
	declareAttrs("Mish")
}
