// Sign computes the sign of X elementwise: -1, 0 or 1 in X's type.
//
// Versions: 9, and 13, which adds bfloat16. The rule: [type] X's type is
// one the version allows. NaN stays NaN and a zero keeps its sign (numpy's
// and onnxruntime's result).

package ops

import "github.com/onnxshape/onnxshape/ops/internal/elementwise"

var signOp = &unaryOp{
	name: "Sign", types: versionTypes{9: numberTypes, 13: numberBFTypes},
	kernel: fixedUnaries(numberUnaries([8]unaryKernel{
		unarySpan[uint8, uint8](elementwise.Sign[uint8]), unarySpan[uint16, uint16](elementwise.Sign[uint16]),
		unarySpan[uint32, uint32](elementwise.Sign[uint32]), unarySpan[uint64, uint64](elementwise.Sign[uint64]),
		unarySpan[int8, int8](elementwise.Sign[int8]), unarySpan[int16, int16](elementwise.Sign[int16]),
		unarySpan[int32, int32](elementwise.Sign[int32]), unarySpan[int64, int64](elementwise.Sign[int64]),
	}, elementwise.Sign[float32], unarySpan[float64, float64](elementwise.Sign[float64]))),
}

func init() {
	register("Sign", []int{9, 13}, [2]int{1, 1}, [2]int{1, 1}, signOp.node)
	declareAttrs("Sign")
}
