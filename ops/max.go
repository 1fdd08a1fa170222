// Max computes the elementwise maximum of one or more inputs.
//
// Versions: 1 (consumed_inputs changes nothing) and 6 take inputs of one
// shape; from 8 the inputs broadcast to each other (numpy's rule); 12 adds
// the integer types and 13 bfloat16. The rules: [type] every input has the
// first one's type, one the version allows; [shape] (before 8) every input
// has the first one's shape; [broadcast] (from 8) the shapes broadcast.
// NaN wins against any number (numpy's maximum and Go's max), and
// max(-0, +0) is +0.

package ops

import "github.com/onnxshape/onnxshape/ops/internal/elementwise"

var maxOp = &variadicOp{binaryOp: binaryOp{
	name: "Max", types: versionTypes{1: floatTypes, 6: floatTypes, 8: floatTypes, 12: numberTypes, 13: numberBFTypes},
	kernel: fixedKernels(numberBinaries([8]binaryKernel{
		elementwise.MinMaxInt("Max", maxSpans[uint8]()), elementwise.MinMaxInt("Max", maxSpans[uint16]()), elementwise.MinMaxInt("Max", maxSpans[uint32]()), elementwise.MinMaxInt("Max", maxSpans[uint64]()),
		elementwise.MinMaxInt("Max", maxSpans[int8]()), elementwise.MinMaxInt("Max", maxSpans[int16]()), elementwise.MinMaxInt("Max", maxSpans[int32]()), elementwise.MinMaxInt("Max", maxSpans[int64]()),
	}, elementwise.MinMaxF32("Max", maxSpans[float32]()), maxSpans[float64]())),
}}

func init() {
	register("Max", []int{1, 6, 8, 12, 13}, [2]int{1, -1}, [2]int{1, 1}, maxOp.node)
	declareAttrs("Max", consumedInputs)
}

func maxSpans[T number]() binarySpans[T, T, T] {
	return binarySpans[T, T, T]{
		Both: func(o, a, b []T) {
			for i := range o {
				o[i] = max(a[i], b[i])
			}
		},
		Left: func(o []T, a T, b []T) {
			for i := range o {
				o[i] = max(a, b[i])
			}
		},
		Right: func(o, a []T, b T) {
			for i := range o {
				o[i] = max(a[i], b)
			}
		},
	}
}
