// Selu computes gamma*X for X > 0 and gamma*(alpha*exp(X) - alpha) below,
// elementwise; alpha defaults to 1.67326319217681884765625 and gamma to
// 1.05070102214813232421875 (the float32 values of the spec).
//
// Versions: 1 (consumed_inputs changes nothing), 6 and 22 (adds bfloat16).
// The rule: [type] X's type is one the version allows. float32 is
// mathf.Selu's float32 algorithm (gamma*(alpha*Expm1(X)) below 0), which
// the reference engine states too; float16 and bfloat16 through float32;
// float64 is computed in float64.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/mathf"
	"math"

	"github.com/onnxshape/onnxshape/tensor"
)

var seluOp = &unaryOp{
	name: "Selu", types: versionTypes{1: floatTypes, 6: floatTypes, 22: floatBFTypes},
	kernel: func(n *Node, dt tensor.DataType) (unaryKernel, error) {
		alpha, err := n.Float("alpha", 1.67326319217681884765625)
		if err != nil {
			return nil, err
		}
		gamma, err := n.Float("gamma", 1.05070102214813232421875)
		if err != nil {
			return nil, err
		}
		a, g := float64(alpha), float64(gamma)
		return fixedUnaries(float32Function(func(o, x []float32) { mathf.SelusTo(o, x, alpha, gamma) }, func(x float64) float64 {
			if x > 0 {
				return g * x
			}
			return g * (a*math.Exp(x) - a)
		}))(n, dt)
	},
}

func init() {
	register("Selu", []int{1, 6, 22}, [2]int{1, 1}, [2]int{1, 1}, seluOp.node)
	declareAttrs("Selu", AttrSpec{Name: "alpha", Type: AttrFloat}, AttrSpec{Name: "gamma", Type: AttrFloat}, consumedInputs)
}
