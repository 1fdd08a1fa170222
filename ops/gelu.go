// Gelu computes the Gaussian error linear unit elementwise:
// 0.5*X*(1 + erf(X/sqrt(2))), or with approximate="tanh"
// 0.5*X*(1 + tanh(sqrt(2/pi)*(X + 0.044715*X^3))).
//
// Versions: 20. The rules: [type] X is of a float type; [approximate] the
// attribute is "none" (the default) or "tanh". float32 is mathf.Gelu's
// (GeluTanh's) float32 algorithm, fma(X/2, erf(X/sqrt2), X/2) with
// mathf.Erf (Tanh): within 4 (5) ulps for X >= -1, below where 1 + erf
// cancels (as in onnxruntime's MLAS, the same formula) small against 1;
// the reference engine states it too. float16 and bfloat16 through
// float32; float64 is computed in float64 and rounded once.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/mathf"
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
			return fixedUnaries(float32Function(mathf.GelusTo, gelu))(n, dt)
		case "tanh":
			return fixedUnaries(float32Function(mathf.GeluTanhsTo, geluTanh))(n, dt)
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
