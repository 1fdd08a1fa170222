// Swish computes X*sigmoid(alpha*X) elementwise; alpha defaults to 1.
//
// Versions: 24. The rule: [type] X is of a float type (float16, float,
// double, bfloat16). float32 is mathf.Swish's float32 algorithm (X *
// Sigmoid(alpha*X); within 4 ulps for alpha 1), which the reference
// engine states too; float16 and bfloat16 through float32; float64 is
// computed in float64. SwiGLU (swiglu.go) gates with it.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/mathf"
	"github.com/onnxshape/onnxshape/tensor"
)

var swishOp = &unaryOp{
	name: "Swish", types: versionTypes{24: floatBFTypes},
	kernel: func(n *Node, dt tensor.DataType) (unaryKernel, error) {
		alpha, err := n.Float("alpha", 1)
		if err != nil {
			return nil, err
		}
		a := float64(alpha)
		return fixedUnaries(float32Function(func(o, x []float32) { mathf.SwishesTo(o, x, alpha) }, func(x float64) float64 { return swish(a, x) }))(n, dt)
	},
}

func init() {
	register("Swish", []int{24}, [2]int{1, 1}, [2]int{1, 1}, swishOp.node)
	declareAttrs("Swish", AttrSpec{Name: "alpha", Type: AttrFloat})
}

// swish is "x * sigmoid(alpha * x)".
func swish(alpha, x float64) float64 { return x * sigmoid(alpha*x) }
