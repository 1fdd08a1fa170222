// Shrink computes X+bias for X < -lambd, X-bias for X > lambd and 0
// otherwise, elementwise; bias defaults to 0 and lambd to 0.5.
//
// Versions: 9, over every number type. The rule: [type] X's type is one
// the version allows. Computed in float64; for integer types the result
// is converted toward zero and saturated (as C's cast, onnxruntime's
// computation in float then cast).

package ops

import "github.com/onnxshape/onnxshape/tensor"

var shrinkOp = &unaryOp{
	name: "Shrink", types: versionTypes{9: numberTypes},
	kernel: func(n *Node, dt tensor.DataType) (unaryKernel, error) {
		bias, err := n.Float("bias", 0)
		if err != nil {
			return nil, err
		}
		lambd, err := n.Float("lambd", 0.5)
		if err != nil {
			return nil, err
		}
		b, l := float64(bias), float64(lambd)
		return fixedUnaries(numberFunction(func(x float64) float64 {
			switch {
			case x < -l:
				return x + b
			case x > l:
				return x - b
			}
			return 0
		}))(n, dt)
	},
}

func init() {
	register("Shrink", []int{9}, [2]int{1, 1}, [2]int{1, 1}, shrinkOp.node)
	declareAttrs("Shrink", AttrSpec{Name: "bias", Type: AttrFloat}, AttrSpec{Name: "lambd", Type: AttrFloat})
}
