// Mish computes X*tanh(softplus(X)) elementwise.
//
// Versions: 18 and 22; they differ only in the types they allow. The rule:
// [type] X's type is one the version allows. float32 is computed in float64
// and rounded once; float16 and bfloat16 through float32.

package ops

import "math"

var mishOp = &unaryOp{
	name: "Mish", types: versionTypes{18: floatTypes, 22: floatBFTypes},
	kernel: fixedUnaries(floatFunction(func(x float64) float64 { return x * math.Tanh(softplus(x)) })),
}

func init() {
	register("Mish", []int{18, 22}, [2]int{1, 1}, [2]int{1, 1}, mishOp.node)
	declareAttrs("Mish")
}
