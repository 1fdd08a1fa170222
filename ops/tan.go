// Tan computes the tangent of X (radians) elementwise.
//
// Versions: 7 and 22; they differ only in the types they allow. The rule:
// [type] X's type is one the version allows. float32 is mathf.Tan's float32
// algorithm (Cephes-style: the reduction by pi/2 in float32, math.Tan in
// float64 beyond |X| = 65536; within 3 ulps of the correctly rounded result;
// AVX2 on amd64), which the reference engine states too
// (reference/float32math.go); float16 and bfloat16 through float32; float64
// is math.Tan.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/mathf"
)

var tanOp = &unaryOp{
	name: "Tan", types: versionTypes{7: floatTypes, 22: floatBFTypes},
	kernel: fixedUnaries(float32Function(mathf.TansTo, math.Tan)),
}

func init() {
	register("Tan", []int{7, 22}, [2]int{1, 1}, [2]int{1, 1}, tanOp.node)
	declareAttrs("Tan")
}
