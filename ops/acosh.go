// Acosh computes the inverse hyperbolic cosine of X elementwise; below 1 it
// is NaN.
//
// Versions: 9 and 22; they differ only in the types they allow. The rule:
// [type] X's type is one the version allows. float32 is mathf.Acosh's
// float32 algorithm (Cephes-style: a polynomial in sqrt(X-1) below 1.5, then
// mathf.Log; within 3 ulps of the correctly rounded result; AVX2 on amd64),
// which the reference engine states too (reference/float32math.go); float16
// and bfloat16 through float32; float64 is math.Acosh.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/mathf"
)

var acoshOp = &unaryOp{
	name: "Acosh", types: versionTypes{9: floatTypes, 22: floatBFTypes},
	kernel: fixedUnaries(float32Function(mathf.AcoshsTo, math.Acosh)),
}

func init() {
	register("Acosh", []int{9, 22}, [2]int{1, 1}, [2]int{1, 1}, acoshOp.node)
	declareAttrs("Acosh")
}
