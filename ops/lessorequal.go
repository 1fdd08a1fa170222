// LessOrEqual compares A <= B elementwise, with broadcasting; the output is
// bool.
//
// Versions: 12, and 16, which adds bfloat16. The rules: [type] A's type is
// one the version allows and B's is A's; [broadcast] the shapes broadcast. A
// comparison with NaN is false (IEEE 754), as in C and onnxruntime; float16
// and bfloat16 compare as float32, which holds them exactly.

package ops

import (
	"cmp"

	"github.com/onnxshape/onnxshape/ops/internal/elementwise"
	"github.com/onnxshape/onnxshape/tensor"
)

var lessOrEqualOp = &binaryOp{
	name: "LessOrEqual", types: versionTypes{12: numberTypes, 16: numberBFTypes},
	legacyBefore: 0, boolOut: true,
	kernel: fixedKernels(lessOrEqualKernels()),
}

func init() {
	register("LessOrEqual", []int{12, 16}, [2]int{2, 2}, [2]int{1, 1}, lessOrEqualOp.node)
	declareAttrs("LessOrEqual")
}

func lessOrEqualKernels() map[tensor.DataType]binaryKernel {
	kernels := numberBinaries([8]binaryKernel{
		lessOrEqualSpans[uint8](), lessOrEqualSpans[uint16](), lessOrEqualSpans[uint32](), lessOrEqualSpans[uint64](),
		lessOrEqualSpans[int8](), lessOrEqualSpans[int16](), lessOrEqualSpans[int32](), lessOrEqualSpans[int64](),
	}, lessOrEqualSpans[float32](), lessOrEqualSpans[float64]())
	return kernels
}

func lessOrEqualSpans[T cmp.Ordered]() binarySpans[T, T, bool] {
	return elementwise.Compare(elementwise.CmpLE, binarySpans[T, T, bool]{
		Both: func(o []bool, a, b []T) {
			for i := range o {
				o[i] = a[i] <= b[i]
			}
		},
		Left: func(o []bool, a T, b []T) {
			for i := range o {
				o[i] = a <= b[i]
			}
		},
		Right: func(o []bool, a []T, b T) {
			for i := range o {
				o[i] = a[i] <= b
			}
		},
	})
}
