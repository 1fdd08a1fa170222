// Erf computes the error function of X elementwise. Version 9 also takes
// integers: the result (in [-1, 1]) is converted toward zero, so 0 except 1
// or -1 where erf rounds to ±1 in float64 (|x| >= 6).
//
// Versions: 9 and 13; 9 allows every number type, 13 only the float types
// (bfloat16 added). The rule: [type] X's type is one the version allows.
// float32 is computed in float64 and rounded once; float16 and bfloat16
// through float32.

package ops

import "math"

var erfOp = &unaryOp{
	name: "Erf", types: versionTypes{9: numberTypes, 13: floatBFTypes},
	kernel: fixedUnaries(numberFunction(math.Erf)),
}

func init() {
	register("Erf", []int{9, 13}, [2]int{1, 1}, [2]int{1, 1}, erfOp.node)
	declareAttrs("Erf")
}
