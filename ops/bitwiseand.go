// BitwiseAnd computes the bitwise and of A and B elementwise, with
// broadcasting, on integer tensors.
//
// Versions: 18. The rules: [type] A is of an integer type and B of A's;
// [broadcast] the shapes broadcast.

package ops

var bitwiseAndOp = &binaryOp{
	name: "BitwiseAnd", types: versionTypes{18: intTypes},
	kernel: fixedKernels(integerBinaries([8]binaryKernel{
		bitwiseAndSpans[uint8](), bitwiseAndSpans[uint16](), bitwiseAndSpans[uint32](), bitwiseAndSpans[uint64](),
		bitwiseAndSpans[int8](), bitwiseAndSpans[int16](), bitwiseAndSpans[int32](), bitwiseAndSpans[int64](),
	})),
}

func init() {
	register("BitwiseAnd", []int{18}, [2]int{2, 2}, [2]int{1, 1}, bitwiseAndOp.node)
	declareAttrs("BitwiseAnd")
}

func bitwiseAndSpans[T integer]() binarySpans[T, T, T] {
	return binarySpans[T, T, T]{
		Both: func(o, a, b []T) {
			for i := range o {
				o[i] = a[i] & b[i]
			}
		},
		Left: func(o []T, a T, b []T) {
			for i := range o {
				o[i] = a & b[i]
			}
		},
		Right: func(o, a []T, b T) {
			for i := range o {
				o[i] = a[i] & b
			}
		},
	}
}
