// Sin computes the sine of X (radians) elementwise.
//
// Versions: 7 and 22; they differ only in the types they allow. The rule:
// [type] X's type is one the version allows. float32 is mathf.Sin's float32
// algorithm (Cephes-style: the reduction by pi/2 in float32, math.Sin in
// float64 beyond |X| = 65536; within 2 ulps of the correctly rounded result;
// AVX2 on amd64), which the reference engine states too
// (reference/float32math.go); float16 and bfloat16 through float32; float64
// is math.Sin.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/mathf"
)

var sinOp = &unaryOp{
	name: "Sin", types: versionTypes{7: floatTypes, 22: floatBFTypes},
	kernel: fixedUnaries(float32Function(mathf.SinsTo, math.Sin)),
}

func init() {
	register("Sin", []int{7, 22}, [2]int{1, 1}, [2]int{1, 1}, sinOp.node)
	declareAttrs("Sin")
}
