// Asinh computes the inverse hyperbolic sine of X elementwise.
//
// Versions: 9 and 22; they differ only in the types they allow. The rule:
// [type] X's type is one the version allows. float32 is computed in float64
// and rounded once; float16 and bfloat16 through float32.

package ops

import "math"

var asinhOp = &unaryOp{
	name: "Asinh", types: versionTypes{9: floatTypes, 22: floatBFTypes},
	kernel: fixedUnaries(float32Function(func(o, x []float32) {
		for i, v := range x[:len(o)] {
			o[i] = float32(math.Asinh(float64(v)))
		}
	}, math.Asinh)),
}

func init() {
	register("Asinh", []int{9, 22}, [2]int{1, 1}, [2]int{1, 1}, asinhOp.node)
	declareAttrs("Asinh")
}
