// BitwiseNot computes the bitwise complement of an integer tensor
// elementwise.
//
// Versions: 18. The rule: [type] X is of an integer type.

package ops

import "github.com/onnxshape/onnxshape/ops/internal/elementwise"

var bitwiseNotOp = &unaryOp{
	name: "BitwiseNot", types: versionTypes{18: intTypes},
	kernel: fixedUnaries(integerUnaries([8]unaryKernel{
		unarySpan[uint8, uint8](elementwise.Complement[uint8]), unarySpan[uint16, uint16](elementwise.Complement[uint16]),
		unarySpan[uint32, uint32](elementwise.Complement[uint32]), unarySpan[uint64, uint64](elementwise.Complement[uint64]),
		unarySpan[int8, int8](elementwise.Complement[int8]), unarySpan[int16, int16](elementwise.Complement[int16]),
		unarySpan[int32, int32](elementwise.Complement[int32]), unarySpan[int64, int64](elementwise.Complement[int64]),
	})),
}

func init() {
	register("BitwiseNot", []int{18}, [2]int{1, 1}, [2]int{1, 1}, bitwiseNotOp.node)
	declareAttrs("BitwiseNot")
}
