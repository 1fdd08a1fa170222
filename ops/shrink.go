// Shrink computes X+bias for X < -lambd, X-bias for X > lambd and 0
// otherwise, elementwise; bias defaults to 0 and lambd to 0.5.
//
// Versions: 9, over every number type. The rule: [type] X's type is one
// the version allows. float32 (float16 through it) is mathf.Shrink's loop
// (AVX2 on amd64): one float32 sum, the float64 definition's bits.
// Otherwise computed in float64; for integer types the result
// is converted toward zero and saturated (as C's cast, onnxruntime's
// computation in float then cast).

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/mathf"
	"github.com/onnxshape/onnxshape/tensor"
)

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
		if dt == tensor.Float { // the common case without the tables below, made at every call
			return unarySpan[float32, float32](func(o, x []float32) { mathf.ShrinksTo(o, x, lambd, bias) }), nil
		}
		b, l := float64(bias), float64(lambd)
		f := func(x float64) float64 {
			switch {
			case x < -l:
				return x + b
			case x > l:
				return x - b
			}
			return 0
		}
		t := numberFunction(f)
		for dt, k := range float32Function(func(o, x []float32) { mathf.ShrinksTo(o, x, lambd, bias) }, f) {
			t[dt] = k
		}
		return fixedUnaries(t)(n, dt)
	},
}

func init() {
	register("Shrink", []int{9}, [2]int{1, 1}, [2]int{1, 1}, shrinkOp.node)
	declareAttrs("Shrink", AttrSpec{Name: "bias", Type: AttrFloat}, AttrSpec{Name: "lambd", Type: AttrFloat})
}
