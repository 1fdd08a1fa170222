// HardSwish computes X * max(0, min(1, X/6 + 0.5)) elementwise (HardSigmoid
// with alpha 1/6, beta 0.5, times X).
//
// Versions: 14 and 22 (adds bfloat16). The rule: [type] X's type is one
// the version allows. float32 (float16 and bfloat16 through it) is X *
// clamp((X+3)/6) in float32 (mathf.HardSwish: within 3 ulps; no rounded
// 1/6 cancels against 0.5 near X = -3), which the reference engine states
// too; float64 is computed in float64.

package ops

import "github.com/onnxshape/onnxshape/ops/internal/mathf"

var hardSwishOp = &unaryOp{
	name: "HardSwish", types: versionTypes{14: floatTypes, 22: floatBFTypes},
	kernel: fixedUnaries(float32Function(mathf.HardSwishesTo, func(x float64) float64 {
		return x * clamp01(x/6+0.5)
	})),
}

func init() {
	register("HardSwish", []int{14, 22}, [2]int{1, 1}, [2]int{1, 1}, hardSwishOp.node)
	declareAttrs("HardSwish")
}
