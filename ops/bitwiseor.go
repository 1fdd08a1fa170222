// BitwiseOr computes the bitwise or of A and B elementwise, with
// broadcasting, on integer tensors.
//
// Versions: 18. The rules: [type] A is of an integer type and B of A's;
// [broadcast] the shapes broadcast.

package ops

var bitwiseOrOp = &binaryOp{
	name: "BitwiseOr", types: versionTypes{18: intTypes},
	kernel: fixedKernels(integerBinaries([8]binaryKernel{
		bitwiseOrSpans[uint8](), bitwiseOrSpans[uint16](), bitwiseOrSpans[uint32](), bitwiseOrSpans[uint64](),
		bitwiseOrSpans[int8](), bitwiseOrSpans[int16](), bitwiseOrSpans[int32](), bitwiseOrSpans[int64](),
	})),
}

func init() {
	register("BitwiseOr", []int{18}, [2]int{2, 2}, [2]int{1, 1}, bitwiseOrOp.node)
	declareAttrs("BitwiseOr")
}

func bitwiseOrSpans[T integer]() binarySpans[T, T, T] {
	return binarySpans[T, T, T]{
		Both: func(o, a, b []T) {
			for i := range o {
				o[i] = a[i] | b[i]
			}
		},
		Left: func(o []T, a T, b []T) {
			for i := range o {
				o[i] = a | b[i]
			}
		},
		Right: func(o, a []T, b T) {
			for i := range o {
				o[i] = a[i] | b
			}
		},
	}
}
