// Abs computes the absolute value of X elementwise.
//
// Versions: 1 (floats; consumed_inputs changes nothing), 6 (every number
// type) and 13 (adds bfloat16). The rule: [type] X's type is one the
// version allows. The absolute value of a signed integer type's least
// value wraps to itself, as in C and onnxruntime; unsigned values are
// their own.

package ops

import "math"

var absOp = &unaryOp{
	name: "Abs", types: versionTypes{1: floatTypes, 6: numberTypes, 13: numberBFTypes},
	kernel: fixedUnaries(numberUnaries([8]unaryKernel{
		mapping(func(x uint8) uint8 { return x }), mapping(func(x uint16) uint16 { return x }),
		mapping(func(x uint32) uint32 { return x }), mapping(func(x uint64) uint64 { return x }),
		mapping(absInt[int8]), mapping(absInt[int16]), mapping(absInt[int32]), mapping(absInt[int64]),
	}, mapping(func(x float32) float32 { return float32(math.Abs(float64(x))) }), mapping(math.Abs))),
}

func init() {
	register("Abs", []int{1, 6, 13}, [2]int{1, 1}, [2]int{1, 1}, absOp.node)
	declareAttrs("Abs", consumedInputs)
}

func absInt[T signedInteger](x T) T {
	if x < 0 {
		return -x
	}
	return x
}
