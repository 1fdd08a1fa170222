// Less compares A < B elementwise, with broadcasting; the output is bool.
//
// Versions: 1 broadcasts B to A by the legacy rule (attributes broadcast and
// axis) and 7 both ways, over the float types; 9 adds the integers and 13
// bfloat16. The rules: [type] A's type is one the version allows and B's is
// A's; [broadcast] the shapes broadcast. A comparison with NaN is false
// (IEEE 754), as in C and onnxruntime; float16 and bfloat16 compare as
// float32, which holds them exactly.

package ops

import (
	"cmp"

	"github.com/onnxshape/onnxshape/ops/internal/elementwise"
	"github.com/onnxshape/onnxshape/tensor"
)

var lessOp = &binaryOp{
	name: "Less", types: versionTypes{1: floatTypes, 7: floatTypes, 9: numberTypes, 13: numberBFTypes},
	legacyBefore: 7, boolOut: true,
	kernel: fixedKernels(lessKernels()),
}

func init() {
	register("Less", []int{1, 7, 9, 13}, [2]int{2, 2}, [2]int{1, 1}, lessOp.node)
	declareAttrs("Less", legacyBroadcastAttrs(7)...)
}

func lessKernels() map[tensor.DataType]binaryKernel {
	kernels := numberBinaries([8]binaryKernel{
		lessSpans[uint8](), lessSpans[uint16](), lessSpans[uint32](), lessSpans[uint64](),
		lessSpans[int8](), lessSpans[int16](), lessSpans[int32](), lessSpans[int64](),
	}, lessSpans[float32](), lessSpans[float64]())
	return kernels
}

func lessSpans[T cmp.Ordered]() binarySpans[T, T, bool] {
	return elementwise.Compare(elementwise.CmpLT, binarySpans[T, T, bool]{
		Both: func(o []bool, a, b []T) {
			for i := range o {
				o[i] = a[i] < b[i]
			}
		},
		Left: func(o []bool, a T, b []T) {
			for i := range o {
				o[i] = a < b[i]
			}
		},
		Right: func(o []bool, a []T, b T) {
			for i := range o {
				o[i] = a[i] < b
			}
		},
	})
}
