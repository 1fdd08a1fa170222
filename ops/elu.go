// Elu computes X for X >= 0 and alpha*(exp(X) - 1) below, elementwise;
// alpha defaults to 1.
//
// Versions: 1 (consumed_inputs changes nothing), 6 and 22 (adds bfloat16).
// The rule: [type] X's type is one the version allows. float32 is
// mathf.Elu's float32 algorithm (alpha*Expm1(X): within 3 ulps for alpha
// 1), which the reference engine states too; float16 and bfloat16
// through float32; float64 is alpha*math.Expm1(X).

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/mathf"
	"math"

	"github.com/onnxshape/onnxshape/tensor"
)

var eluOp = &unaryOp{
	name: "Elu", types: versionTypes{1: floatTypes, 6: floatTypes, 22: floatBFTypes},
	kernel: func(n *Node, dt tensor.DataType) (unaryKernel, error) {
		alpha, err := n.Float("alpha", 1)
		if err != nil {
			return nil, err
		}
		return fixedUnaries(float32Function(func(o, x []float32) { mathf.ElusTo(o, x, alpha) }, func(x float64) float64 {
			if x < 0 {
				return float64(alpha) * math.Expm1(x)
			}
			return x
		}))(n, dt)
	},
}

func init() {
	register("Elu", []int{1, 6, 22}, [2]int{1, 1}, [2]int{1, 1}, eluOp.node)
	declareAttrs("Elu", AttrSpec{Name: "alpha", Type: AttrFloat}, consumedInputs)
}
