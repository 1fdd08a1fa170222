// LeakyRelu computes X for X >= 0 and alpha*X below, elementwise; alpha
// defaults to 0.01.
//
// Versions: 1 (consumed_inputs changes nothing), 6 and 16 (adds bfloat16).
// The rule: [type] X's type is one the version allows. float32 (float16
// and bfloat16 through it) is mathf.LeakyRelu's loop (AVX2 on amd64):
// one float32 product, the float64 definition's bits.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/mathf"
	"github.com/onnxshape/onnxshape/tensor"
)

var leakyReluOp = &unaryOp{
	name: "LeakyRelu", types: versionTypes{1: floatTypes, 6: floatTypes, 16: floatBFTypes},
	kernel: func(n *Node, dt tensor.DataType) (unaryKernel, error) {
		alpha, err := n.Float("alpha", 0.01)
		if err != nil {
			return nil, err
		}
		return fixedUnaries(float32Function(func(o, x []float32) { mathf.LeakyRelusTo(o, x, alpha) }, func(x float64) float64 {
			if x < 0 {
				return float64(alpha) * x
			}
			return x
		}))(n, dt)
	},
}

func init() {
	register("LeakyRelu", []int{1, 6, 16}, [2]int{1, 1}, [2]int{1, 1}, leakyReluOp.node)
	declareAttrs("LeakyRelu", AttrSpec{Name: "alpha", Type: AttrFloat}, consumedInputs)
}
