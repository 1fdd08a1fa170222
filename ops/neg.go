// Neg computes -X elementwise.
//
// Versions: 1 (floats; consumed_inputs changes nothing), 6 (adds the
// signed integers) and 13 (adds bfloat16). The rule: [type] X's type is
// one the version allows. Negating a signed integer type's least value
// wraps to itself, as in C and onnxruntime.

package ops

var negOp = &unaryOp{
	name: "Neg", types: versionTypes{1: floatTypes, 6: floatTypes | signedTypes, 13: floatBFTypes | signedTypes},
	kernel: fixedUnaries(numberUnaries([8]unaryKernel{
		nil, nil, nil, nil,
		mapping(negate[int8]), mapping(negate[int16]), mapping(negate[int32]), mapping(negate[int64]),
	}, mapping(negate[float32]), mapping(negate[float64]))),
}

func init() {
	register("Neg", []int{1, 6, 13}, [2]int{1, 1}, [2]int{1, 1}, negOp.node)
	declareAttrs("Neg", consumedInputs)
}

func negate[T signedNumber](x T) T { return -x }
