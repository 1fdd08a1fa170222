// Atan computes the arctangent of X elementwise.
//
// Versions: 7 and 22; they differ only in the types they allow. The rule:
// [type] X's type is one the version allows. float32 is computed in float64
// and rounded once; float16 and bfloat16 through float32.

package ops

import "math"

var atanOp = &unaryOp{
	name: "Atan", types: versionTypes{7: floatTypes, 22: floatBFTypes},
	kernel: fixedUnaries(float32Function(func(o, x []float32) {
		for i, v := range x[:len(o)] {
			o[i] = float32(math.Atan(float64(v)))
		}
	}, math.Atan)),
}

func init() {
	register("Atan", []int{7, 22}, [2]int{1, 1}, [2]int{1, 1}, atanOp.node)
	declareAttrs("Atan")
}
