// Celu computes max(0, X) + min(0, alpha*(exp(X/alpha) - 1)) elementwise;
// alpha defaults to 1.
//
// Versions: 12 (float only) and 28 (adds float16, double and bfloat16).
// The rules: [type] X's type is one the version allows; [alpha] alpha is
// not 0 (the spec divides by it). float32 is mathf.Celu's float32
// algorithm (X+0 for X >= 0, alpha*Expm1(X/alpha) below), which the
// reference engine states too; float16 and bfloat16 through float32;
// float64 is computed in float64.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/mathf"
	"math"

	"github.com/onnxshape/onnxshape/tensor"
)

var celuOp = &unaryOp{
	name: "Celu", types: versionTypes{12: typesOf(tensor.Float), 28: floatBFTypes},
	kernel: func(n *Node, dt tensor.DataType) (unaryKernel, error) {
		alpha, err := n.Float("alpha", 1)
		if err != nil {
			return nil, err
		}
		if alpha == 0 {
			return nil, n.op().errorf("alpha", "alpha is 0; Celu divides by it")
		}
		a := float64(alpha)
		return fixedUnaries(float32Function(func(o, x []float32) { mathf.CelusTo(o, x, alpha) }, func(x float64) float64 {
			return math.Max(0, x) + math.Min(0, a*math.Expm1(x/a))
		}))(n, dt)
	},
}

func init() {
	register("Celu", []int{12, 28}, [2]int{1, 1}, [2]int{1, 1}, celuOp.node)
	declareAttrs("Celu", AttrSpec{Name: "alpha", Type: AttrFloat})
}
