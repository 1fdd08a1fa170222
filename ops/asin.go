// Asin computes the arcsine of X elementwise; outside [-1, 1] it is NaN.
//
// Versions: 7 and 22; they differ only in the types they allow. The rule:
// [type] X's type is one the version allows. float32 is computed in float64
// and rounded once; float16 and bfloat16 through float32.

package ops

import "math"

var asinOp = &unaryOp{
	name: "Asin", types: versionTypes{7: floatTypes, 22: floatBFTypes},
	kernel: fixedUnaries(float32Function(func(o, x []float32) {
		for i, v := range x[:len(o)] {
			o[i] = float32(math.Asin(float64(v)))
		}
	}, math.Asin)),
}

func init() {
	register("Asin", []int{7, 22}, [2]int{1, 1}, [2]int{1, 1}, asinOp.node)
	declareAttrs("Asin")
}
