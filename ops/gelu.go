// Gelu computes the Gaussian error linear unit elementwise:
// 0.5*X*(1 + erf(X/sqrt(2))), or with approximate="tanh"
// 0.5*X*(1 + tanh(sqrt(2/pi)*(X + 0.044715*X^3))).
//
// Versions: 20. The rules: [type] X is of a float type; [approximate] the
// attribute is "none" (the default) or "tanh". Computed in float64 and
// rounded once.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/tensor"
)

var geluOp = &unaryOp{
	name: "Gelu", types: versionTypes{20: floatBFTypes},
	kernel: func(n *Node, dt tensor.DataType) (unaryKernel, error) {
		approximate, err := n.Str("approximate", "none")
		if err != nil {
			return nil, err
		}
		switch approximate {
		case "none":
			return fixedUnaries(floatFunction(gelu))(n, dt)
		case "tanh":
			return fixedUnaries(floatFunction(geluTanh))(n, dt)
		}
		return nil, n.op().errorf("approximate", "approximate is %q; it is none or tanh", approximate)
	},
}

func init() {
	register("Gelu", []int{20}, [2]int{1, 1}, [2]int{1, 1}, geluOp.node)
	declareAttrs("Gelu", AttrSpec{Name: "approximate", Type: AttrString})
}

func gelu(x float64) float64 { return 0.5 * x * (1 + math.Erf(x/math.Sqrt2)) }

func geluTanh(x float64) float64 {
	return 0.5 * x * (1 + math.Tanh(math.Sqrt(2/math.Pi)*(x+0.044715*x*x*x)))
}
