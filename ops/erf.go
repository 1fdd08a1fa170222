// Erf computes the error function of X elementwise. Version 9 also takes
// integers: the result (in [-1, 1]) is converted toward zero, so 0 except 1
// or -1 where erf rounds to ±1 in float64 (|x| >= 6).
//
// Versions: 9 and 13; 9 allows every number type, 13 only the float types
// (bfloat16 added). The rule: [type] X's type is one the version allows.
// float32 is mathf.Erf's float32 algorithm (at most 1.5 ulps from the
// exact value; AVX2 and AVX-512 on amd64, a large
// call with streaming stores), which the reference engine states too;
// float16 and bfloat16 through float32; float64 and the integers are
// math.Erf.

package ops

import (
	"maps"
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/mathf"
	"github.com/onnxshape/onnxshape/tensor"
)

var erfOp = &unaryOp{
	name: "Erf", types: versionTypes{9: numberTypes, 13: floatBFTypes},
	kernel: fixedUnaries(erfKernels()),
}

// erfKernels is numberFunction(math.Erf) with float32's (and the 16-bit
// floats') kernels mathf's.
func erfKernels() map[tensor.DataType]unaryKernel {
	t := numberFunction(math.Erf)
	maps.Copy(t, float32StreamedFunction(mathf.ErfsTo, mathf.ErfsToStreamed, math.Erf))
	return t
}

func init() {
	register("Erf", []int{9, 13}, [2]int{1, 1}, [2]int{1, 1}, erfOp.node)
	declareAttrs("Erf")
}
