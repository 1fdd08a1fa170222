// BitwiseNot computes the bitwise complement of an integer tensor
// elementwise.
//
// Versions: 18. The rule: [type] X is of an integer type.

package ops

var bitwiseNotOp = &unaryOp{
	name: "BitwiseNot", types: versionTypes{18: intTypes},
	kernel: fixedUnaries(integerUnaries([8]unaryKernel{
		mapping(complement[uint8]), mapping(complement[uint16]), mapping(complement[uint32]), mapping(complement[uint64]),
		mapping(complement[int8]), mapping(complement[int16]), mapping(complement[int32]), mapping(complement[int64]),
	})),
}

func init() {
	register("BitwiseNot", []int{18}, [2]int{1, 1}, [2]int{1, 1}, bitwiseNotOp.node)
	declareAttrs("BitwiseNot")
}

func complement[T integer](x T) T { return ^x }
