// Elu computes X for X >= 0 and alpha*(exp(X) - 1) below, elementwise;
// alpha defaults to 1.
//
// Versions: 1 (consumed_inputs changes nothing), 6 and 22 (adds bfloat16).
// The rule: [type] X's type is one the version allows.

package ops

import (
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
		return fixedUnaries(floatFunction(func(x float64) float64 {
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
