// Acosh computes the inverse hyperbolic cosine of X elementwise; below 1 it
// is NaN.
//
// Versions: 9 and 22; they differ only in the types they allow. The rule:
// [type] X's type is one the version allows. float32 is computed in float64
// and rounded once; float16 and bfloat16 through float32.

package ops

import "math"

var acoshOp = &unaryOp{
	name: "Acosh", types: versionTypes{9: floatTypes, 22: floatBFTypes},
	kernel: fixedUnaries(float32Function(func(o, x []float32) {
		for i, v := range x[:len(o)] {
			o[i] = float32(math.Acosh(float64(v)))
		}
	}, math.Acosh)),
}

func init() {
	register("Acosh", []int{9, 22}, [2]int{1, 1}, [2]int{1, 1}, acoshOp.node)
	declareAttrs("Acosh")
}
