// HardSigmoid computes max(0, min(1, alpha*X + beta)) elementwise; alpha
// defaults to 0.2 and beta to 0.5.
//
// Versions: 1 (consumed_inputs changes nothing), 6 and 22 (adds bfloat16).
// The rule: [type] X's type is one the version allows. float32 (float16
// and bfloat16 through it) is alpha*X + beta rounded once (a fused
// multiply-add) and clamped (mathf.HardSigmoid; AVX2 on amd64), which the
// reference engine states too; float64 is computed in float64. NaN stays
// NaN.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/mathf"
	"github.com/onnxshape/onnxshape/tensor"
)

var hardSigmoidOp = &unaryOp{
	name: "HardSigmoid", types: versionTypes{1: floatTypes, 6: floatTypes, 22: floatBFTypes},
	kernel: func(n *Node, dt tensor.DataType) (unaryKernel, error) {
		alpha, err := n.Float("alpha", 0.2)
		if err != nil {
			return nil, err
		}
		beta, err := n.Float("beta", 0.5)
		if err != nil {
			return nil, err
		}
		return fixedUnaries(float32Function(func(o, x []float32) { mathf.HardSigmoidsTo(o, x, alpha, beta) }, func(x float64) float64 {
			return clamp01(float64(alpha)*x + float64(beta))
		}))(n, dt)
	},
}

func init() {
	register("HardSigmoid", []int{1, 6, 22}, [2]int{1, 1}, [2]int{1, 1}, hardSigmoidOp.node)
	declareAttrs("HardSigmoid", AttrSpec{Name: "alpha", Type: AttrFloat}, AttrSpec{Name: "beta", Type: AttrFloat}, consumedInputs)
}

// clamp01 clamps x to [0, 1]; NaN stays NaN.
func clamp01(x float64) float64 {
	if x < 0 {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}
