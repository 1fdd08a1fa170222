// Sinh computes the hyperbolic sine of X elementwise.
//
// Versions: 9 and 22; they differ only in the types they allow. The rule:
// [type] X's type is one the version allows. float32 is mathf.Sinh's float32
// algorithm (Cephes-style: a polynomial to |X| = 1, then from the
// exponential; within 2 ulps of the correctly rounded result; AVX2 on
// amd64), which the reference engine states too (reference/float32math.go);
// float16 and bfloat16 through float32; float64 is math.Sinh.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/mathf"
)

var sinhOp = &unaryOp{
	name: "Sinh", types: versionTypes{9: floatTypes, 22: floatBFTypes},
	kernel: fixedUnaries(float32Function(mathf.SinhsTo, math.Sinh)),
}

func init() {
	register("Sinh", []int{9, 22}, [2]int{1, 1}, [2]int{1, 1}, sinhOp.node)
	declareAttrs("Sinh")
}
