// ThresholdedRelu computes X for X > alpha and 0 otherwise, elementwise;
// alpha defaults to 1.
//
// Versions: 10 and 22 (adds bfloat16). The rule: [type] X's type is one
// the version allows. NaN gives 0 (the comparison is false). float32
// (float16 and bfloat16 through it) is mathf.ThresholdedRelu's loop (AVX2
// on amd64).

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/mathf"
	"github.com/onnxshape/onnxshape/tensor"
)

var thresholdedReluOp = &unaryOp{
	name: "ThresholdedRelu", types: versionTypes{10: floatTypes, 22: floatBFTypes},
	kernel: func(n *Node, dt tensor.DataType) (unaryKernel, error) {
		alpha, err := n.Float("alpha", 1)
		if err != nil {
			return nil, err
		}
		return fixedUnaries(float32Function(func(o, x []float32) { mathf.ThresholdedRelusTo(o, x, alpha) }, func(x float64) float64 {
			if x > float64(alpha) {
				return x
			}
			return 0
		}))(n, dt)
	},
}

func init() {
	register("ThresholdedRelu", []int{10, 22}, [2]int{1, 1}, [2]int{1, 1}, thresholdedReluOp.node)
	declareAttrs("ThresholdedRelu", AttrSpec{Name: "alpha", Type: AttrFloat})
}
