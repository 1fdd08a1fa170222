// Neg computes -X elementwise.
//
// Versions: 1 (floats; consumed_inputs changes nothing), 6 (adds the
// signed integers) and 13 (adds bfloat16). The rule: [type] X's type is
// one the version allows. Negating a signed integer type's least value
// wraps to itself, as in C and onnxruntime.

package ops

import "github.com/onnxshape/onnxshape/ops/internal/elementwise"

var negOp = &unaryOp{
	name: "Neg", types: versionTypes{1: floatTypes, 6: floatTypes | signedTypes, 13: floatBFTypes | signedTypes},
	kernel: fixedUnaries(numberUnaries([8]unaryKernel{
		nil, nil, nil, nil,
		unarySpan[int8, int8](elementwise.Negate[int8]), unarySpan[int16, int16](elementwise.Negate[int16]),
		unarySpan[int32, int32](elementwise.Negate[int32]), unarySpan[int64, int64](elementwise.Negate[int64]),
	}, elementwise.NegF32, unarySpan[float64, float64](elementwise.Negate[float64]))),
}

func init() {
	register("Neg", []int{1, 6, 13}, [2]int{1, 1}, [2]int{1, 1}, negOp.node)
	declareAttrs("Neg", consumedInputs)
}
