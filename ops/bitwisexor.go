// BitwiseXor computes the bitwise exclusive or of A and B elementwise, with
// broadcasting, on integer tensors.
//
// Versions: 18. The rules: [type] A is of an integer type and B of A's;
// [broadcast] the shapes broadcast.

package ops

var bitwiseXorOp = &binaryOp{
	name: "BitwiseXor", types: versionTypes{18: intTypes},
	kernel: fixedKernels(integerBinaries([8]binaryKernel{
		bitwiseXorSpans[uint8](), bitwiseXorSpans[uint16](), bitwiseXorSpans[uint32](), bitwiseXorSpans[uint64](),
		bitwiseXorSpans[int8](), bitwiseXorSpans[int16](), bitwiseXorSpans[int32](), bitwiseXorSpans[int64](),
	})),
}

func init() {
	register("BitwiseXor", []int{18}, [2]int{2, 2}, [2]int{1, 1}, bitwiseXorOp.node)
	declareAttrs("BitwiseXor")
}

func bitwiseXorSpans[T integer]() binarySpans[T, T, T] {
	return binarySpans[T, T, T]{
		Both: func(o, a, b []T) {
			for i := range o {
				o[i] = a[i] ^ b[i]
			}
		},
		Left: func(o []T, a T, b []T) {
			for i := range o {
				o[i] = a ^ b[i]
			}
		},
		Right: func(o, a []T, b T) {
			for i := range o {
				o[i] = a[i] ^ b
			}
		},
	}
}
