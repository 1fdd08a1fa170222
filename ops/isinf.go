// IsInf reports, elementwise, whether each element of X is an infinity;
// the output is bool. The attributes detect_positive and detect_negative
// (both 1 by default) choose which infinities count.
//
// Versions: 10 (float, double) and 20 (adds float16, bfloat16 and the
// float8 types; float8e4m3fn, float8e4m3fnuz and float8e5m2fnuz have no
// infinities). The rule: [type] X's type is one the version allows.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/elementwise"
	"github.com/onnxshape/onnxshape/tensor"
)

var isInfOp = &unaryOp{
	name: "IsInf", types: versionTypes{10: typesOf(tensor.Float, tensor.Double), 20: floatBFTypes | float8Types},
	out:    func(tensor.DataType) tensor.DataType { return tensor.Bool },
	kernel: isInfKernel,
}

func init() {
	register("IsInf", []int{10, 20}, [2]int{1, 1}, [2]int{1, 1}, isInfOp.node)
	declareAttrs("IsInf", AttrSpec{Name: "detect_negative", Type: AttrInt}, AttrSpec{Name: "detect_positive", Type: AttrInt})
}

func isInfKernel(n *Node, dt tensor.DataType) (unaryKernel, error) {
	pos, err := n.Int("detect_positive", 1)
	if err != nil {
		return nil, err
	}
	neg, err := n.Int("detect_negative", 1)
	if err != nil {
		return nil, err
	}
	return fixedUnaries(isInfTables[b2i(pos != 0)][b2i(neg != 0)])(n, dt)
}

// isInfTables are IsInf's kernels for each pair of attributes
// (detect_positive, detect_negative), made once rather than at every call
// (a small tensor's IsInf spent more on them than on its elements).
var isInfTables = func() (t [2][2]map[tensor.DataType]unaryKernel) {
	for p := range 2 {
		for q := range 2 {
			pos, neg := p == 1, q == 1
			t[p][q] = float8Tests(func(x float64) bool {
				return pos && math.IsInf(x, 1) || neg && math.IsInf(x, -1)
			}, elementwise.IsInfF32(pos, neg), elementwise.IsInfF64(pos, neg))
		}
	}
	return t
}()

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
