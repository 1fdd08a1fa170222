// Atanh computes the inverse hyperbolic tangent of X elementwise; ±1 gives
// ±Inf, outside [-1, 1] NaN.
//
// Versions: 9 and 22; they differ only in the types they allow. The rule:
// [type] X's type is one the version allows. float32 is mathf.Atanh's
// float32 algorithm (Cephes-style: a polynomial below |X| = 1/2, then
// mathf.Log; within 2 ulps of the correctly rounded result; AVX2 on amd64),
// which the reference engine states too (reference/float32math.go); float16
// and bfloat16 through float32; float64 is math.Atanh.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/mathf"
)

var atanhOp = &unaryOp{
	name: "Atanh", types: versionTypes{9: floatTypes, 22: floatBFTypes},
	kernel: fixedUnaries(float32Function(mathf.AtanhsTo, math.Atanh)),
}

func init() {
	register("Atanh", []int{9, 22}, [2]int{1, 1}, [2]int{1, 1}, atanhOp.node)
	declareAttrs("Atanh")
}
