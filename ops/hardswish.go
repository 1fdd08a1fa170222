// HardSwish computes X * max(0, min(1, X/6 + 0.5)) elementwise (HardSigmoid
// with alpha 1/6, beta 0.5, times X).
//
// Versions: 14 and 22 (adds bfloat16). The rule: [type] X's type is one
// the version allows. Computed in float64 and rounded once.

package ops

var hardSwishOp = &unaryOp{
	name: "HardSwish", types: versionTypes{14: floatTypes, 22: floatBFTypes},
	kernel: fixedUnaries(floatFunction(func(x float64) float64 {
		return x * clamp01(x/6+0.5)
	})),
}

func init() {
	register("HardSwish", []int{14, 22}, [2]int{1, 1}, [2]int{1, 1}, hardSwishOp.node)
	declareAttrs("HardSwish")
}
