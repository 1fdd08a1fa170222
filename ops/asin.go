// Asin computes the arcsine of X elementwise; outside [-1, 1] it is NaN.
//
// Versions: 7 and 22; they differ only in the types they allow. The rule:
// [type] X's type is one the version allows. float32 is mathf.Asin's float32
// algorithm (Cephes-style: a polynomial, above |X| = 1/2 in sqrt((1-|X|)/2);
// within 2.5 ulps of the correctly rounded result; AVX2 on amd64), which the
// reference engine states too (reference/float32math.go); float16 and
// bfloat16 through float32; float64 is math.Asin.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/mathf"
)

var asinOp = &unaryOp{
	name: "Asin", types: versionTypes{7: floatTypes, 22: floatBFTypes},
	kernel: fixedUnaries(float32Function(mathf.AsinsTo, math.Asin)),
}

func init() {
	register("Asin", []int{7, 22}, [2]int{1, 1}, [2]int{1, 1}, asinOp.node)
	declareAttrs("Asin")
}
