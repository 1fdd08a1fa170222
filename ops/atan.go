// Atan computes the arctangent of X elementwise.
//
// Versions: 7 and 22; they differ only in the types they allow. The rule:
// [type] X's type is one the version allows. float32 is mathf.Atan's float32
// algorithm (Cephes-style: a polynomial after the reduction by tan(pi/8) and
// tan(3pi/8); within 2.5 ulps of the correctly rounded result; AVX2 on
// amd64), which the reference engine states too (reference/float32math.go);
// float16 and bfloat16 through float32; float64 is math.Atan.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/mathf"
)

var atanOp = &unaryOp{
	name: "Atan", types: versionTypes{7: floatTypes, 22: floatBFTypes},
	kernel: fixedUnaries(float32Function(mathf.AtansTo, math.Atan)),
}

func init() {
	register("Atan", []int{7, 22}, [2]int{1, 1}, [2]int{1, 1}, atanOp.node)
	declareAttrs("Atan")
}
