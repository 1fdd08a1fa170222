// Abs computes the absolute value of X elementwise.
//
// Versions: 1 (floats; consumed_inputs changes nothing), 6 (every number
// type) and 13 (adds bfloat16). The rule: [type] X's type is one the
// version allows. The absolute value of a signed integer type's least
// value wraps to itself, as in C and onnxruntime; unsigned values are
// their own. Under SONNX (based on Abs 13) a signed X holding its type's
// least value is refused (E_ABS_INT_CONSTR_X_020, sonnxrule.AbsLeast:
// refuseAbsLeast).

package ops

import (
	"github.com/onnxshape/onnxshape/internal/sonnxrule"
	"github.com/onnxshape/onnxshape/ops/internal/elementwise"
	"github.com/onnxshape/onnxshape/tensor"
)

var absOp = &unaryOp{
	name: "Abs", types: versionTypes{1: floatTypes, 6: numberTypes, 13: numberBFTypes},
	kernel: fixedUnaries(numberUnaries([8]unaryKernel{
		unarySpan[uint8, uint8](elementwise.Same[uint8]), unarySpan[uint16, uint16](elementwise.Same[uint16]),
		unarySpan[uint32, uint32](elementwise.Same[uint32]), unarySpan[uint64, uint64](elementwise.Same[uint64]),
		unarySpan[int8, int8](elementwise.AbsSigned[int8]), unarySpan[int16, int16](elementwise.AbsSigned[int16]),
		unarySpan[int32, int32](elementwise.AbsSigned[int32]), unarySpan[int64, int64](elementwise.AbsSigned[int64]),
	}, elementwise.AbsF32, unarySpan[float64, float64](elementwise.AbsF64))),
	check: refuseAbsLeast,
}

// refuseAbsLeast refuses, under SONNX, a signed X holding its type's least
// value, whose absolute value the type cannot hold (E_ABS_INT_CONSTR_X_020).
func refuseAbsLeast(opt *Options, op opRef, x *tensor.Tensor) error {
	if opt.Profile == ProfileSONNX && hasSignedLeast(x) {
		return op.errorf(sonnxrule.AbsLeast, "X holds the least value of %v, whose absolute value %v cannot hold", x.DataType(), x.DataType())
	}
	return nil
}

func init() {
	register("Abs", []int{1, 6, 13}, [2]int{1, 1}, [2]int{1, 1}, absOp.node)
	declareAttrs("Abs", consumedInputs)
}
