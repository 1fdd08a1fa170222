// Greater compares A > B elementwise, with broadcasting; the output is bool.
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

var greaterOp = &binaryOp{
	name: "Greater", types: versionTypes{1: floatTypes, 7: floatTypes, 9: numberTypes, 13: numberBFTypes},
	legacyBefore: 7, boolOut: true,
	kernel: fixedKernels(greaterKernels()),
}

func init() {
	register("Greater", []int{1, 7, 9, 13}, [2]int{2, 2}, [2]int{1, 1}, greaterOp.node)
	declareAttrs("Greater", legacyBroadcastAttrs(7)...)
}

func greaterKernels() map[tensor.DataType]binaryKernel {
	kernels := numberBinaries([8]binaryKernel{
		greaterSpans[uint8](), greaterSpans[uint16](), greaterSpans[uint32](), greaterSpans[uint64](),
		greaterSpans[int8](), greaterSpans[int16](), greaterSpans[int32](), greaterSpans[int64](),
	}, greaterSpans[float32](), greaterSpans[float64]())
	return kernels
}

func greaterSpans[T cmp.Ordered]() binarySpans[T, T, bool] {
	return elementwise.Compare(elementwise.CmpGT, binarySpans[T, T, bool]{
		Both: func(o []bool, a, b []T) {
			for i := range o {
				o[i] = a[i] > b[i]
			}
		},
		Left: func(o []bool, a T, b []T) {
			for i := range o {
				o[i] = a > b[i]
			}
		},
		Right: func(o []bool, a []T, b T) {
			for i := range o {
				o[i] = a[i] > b
			}
		},
	})
}

// Greater returns a > b elementwise, broadcast, as bool (ONNX Greater,
// version 13).
func Greater(a, b *tensor.Tensor, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Greater", 13}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return greaterOp.apply(opt, &Node{OpType: "Greater", Version: 13}, a, b)
}
