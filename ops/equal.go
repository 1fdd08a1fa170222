// Equal compares A == B elementwise, with broadcasting; the output is bool.
//
// Versions: 1 broadcasts B to A by the legacy rule (attributes broadcast
// and axis) and 7 both ways, over bool, int32 and int64; 11 adds the other
// integers and the floats, 13 bfloat16 and 19 strings.
// The rules: [type] A's type is one the version allows and B's is A's;
// [broadcast] the shapes broadcast. A comparison with NaN is false (IEEE
// 754); float16 and bfloat16 compare as float32, which holds
// them exactly.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/elementwise"
	"github.com/onnxshape/onnxshape/tensor"
)

var equalOp = &binaryOp{
	name: "Equal", types: versionTypes{1: boolTypes | typesOf(tensor.Int32, tensor.Int64), 7: boolTypes | typesOf(tensor.Int32, tensor.Int64), 11: boolTypes | numberTypes, 13: boolTypes | numberBFTypes, 19: boolTypes | numberBFTypes | typesOf(tensor.String)},
	legacyBefore: 7, boolOut: true,
	kernel: fixedKernels(equalKernels()),
}

func init() {
	register("Equal", []int{1, 7, 11, 13, 19}, [2]int{2, 2}, [2]int{1, 1}, equalOp.node)
	declareAttrs("Equal", legacyBroadcastAttrs(7)...)
}

func equalKernels() map[tensor.DataType]binaryKernel {
	kernels := numberBinaries([8]binaryKernel{
		equalSpans[uint8](), equalSpans[uint16](), equalSpans[uint32](), equalSpans[uint64](),
		equalSpans[int8](), equalSpans[int16](), equalSpans[int32](), equalSpans[int64](),
	}, equalSpans[float32](), equalSpans[float64]())
	kernels[tensor.Bool] = equalSpans[bool]()
	kernels[tensor.String] = equalSpans[string]()
	return kernels
}

func equalSpans[T comparable]() binarySpans[T, T, bool] {
	return elementwise.Compare(elementwise.CmpEQ, binarySpans[T, T, bool]{
		Both: func(o []bool, a, b []T) {
			for i := range o {
				o[i] = a[i] == b[i]
			}
		},
		Left: func(o []bool, a T, b []T) {
			for i := range o {
				o[i] = a == b[i]
			}
		},
		Right: func(o []bool, a []T, b T) {
			for i := range o {
				o[i] = a[i] == b
			}
		},
	})
}
