// GreaterOrEqual compares A >= B elementwise, with broadcasting; the output
// is bool.
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

var greaterOrEqualOp = &binaryOp{
	name: "GreaterOrEqual", types: versionTypes{12: numberTypes, 16: numberBFTypes},
	legacyBefore: 0, boolOut: true,
	kernel: fixedKernels(greaterOrEqualKernels()),
}

func init() {
	register("GreaterOrEqual", []int{12, 16}, [2]int{2, 2}, [2]int{1, 1}, greaterOrEqualOp.node)
	declareAttrs("GreaterOrEqual")
}

func greaterOrEqualKernels() map[tensor.DataType]binaryKernel {
	kernels := numberBinaries([8]binaryKernel{
		greaterOrEqualSpans[uint8](), greaterOrEqualSpans[uint16](), greaterOrEqualSpans[uint32](), greaterOrEqualSpans[uint64](),
		greaterOrEqualSpans[int8](), greaterOrEqualSpans[int16](), greaterOrEqualSpans[int32](), greaterOrEqualSpans[int64](),
	}, greaterOrEqualSpans[float32](), greaterOrEqualSpans[float64]())
	return kernels
}

func greaterOrEqualSpans[T cmp.Ordered]() binarySpans[T, T, bool] {
	return elementwise.Compare(elementwise.CmpGE, binarySpans[T, T, bool]{
		Both: func(o []bool, a, b []T) {
			for i := range o {
				o[i] = a[i] >= b[i]
			}
		},
		Left: func(o []bool, a T, b []T) {
			for i := range o {
				o[i] = a >= b[i]
			}
		},
		Right: func(o []bool, a []T, b T) {
			for i := range o {
				o[i] = a[i] >= b
			}
		},
	})
}
