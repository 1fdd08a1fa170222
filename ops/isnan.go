// IsNaN reports, elementwise, whether each element of X is NaN; the output
// is bool.
//
// Versions: 9 (float16, float, double), 13 (adds bfloat16) and 20 (adds
// the float8 types). The rule: [type] X's type is one the version allows.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/elementwise"
	"github.com/onnxshape/onnxshape/tensor"
)

var isNaNOp = &unaryOp{
	name: "IsNaN", types: versionTypes{9: floatTypes, 13: floatBFTypes, 20: floatBFTypes | float8Types},
	out:    func(tensor.DataType) tensor.DataType { return tensor.Bool },
	kernel: fixedUnaries(float8Tests(math.IsNaN, elementwise.IsNaNF32, elementwise.IsNaNF64)),
}

func init() {
	register("IsNaN", []int{9, 13, 20}, [2]int{1, 1}, [2]int{1, 1}, isNaNOp.node)
	declareAttrs("IsNaN")
}

// float8Tests is the table of a test on the float types (float8 included)
// from its float64 test (every float widens to float64 exactly) and its
// typed float32 and float64 loops, which must agree with it.
func float8Tests(test func(float64) bool, f32 unarySpan[float32, bool], f64 unarySpan[float64, bool]) map[tensor.DataType]unaryKernel {
	t := numberUnaries([8]unaryKernel{}, f32, f64)
	t[tensor.Float8E4M3FN] = mapping(func(x uint8) bool { return test(tensor.F8E4M3FN(x).Float64()) })
	t[tensor.Float8E4M3FNUZ] = mapping(func(x uint8) bool { return test(tensor.F8E4M3FNUZ(x).Float64()) })
	t[tensor.Float8E5M2] = mapping(func(x uint8) bool { return test(tensor.F8E5M2(x).Float64()) })
	t[tensor.Float8E5M2FNUZ] = mapping(func(x uint8) bool { return test(tensor.F8E5M2FNUZ(x).Float64()) })
	return t
}
