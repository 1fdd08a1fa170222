// Min computes the elementwise minimum of one or more inputs.
//
// Versions: 1 (consumed_inputs changes nothing) and 6 take inputs of one
// shape; from 8 the inputs broadcast to each other (numpy's rule); 12 adds
// the integer types and 13 bfloat16. The rules: [type] every input has the
// first one's type, one the version allows; [shape] (before 8) every input
// has the first one's shape; [broadcast] (from 8) the shapes broadcast.
// NaN wins against any number (numpy's minimum and Go's min), and
// min(-0, +0) is -0.

package ops

import "github.com/onnxshape/onnxshape/ops/internal/elementwise"

var minOp = &variadicOp{binaryOp: binaryOp{
	name: "Min", types: versionTypes{1: floatTypes, 6: floatTypes, 8: floatTypes, 12: numberTypes, 13: numberBFTypes},
	kernel: fixedKernels(numberBinaries([8]binaryKernel{
		elementwise.MinMaxInt("Min", minSpans[uint8]()), elementwise.MinMaxInt("Min", minSpans[uint16]()), elementwise.MinMaxInt("Min", minSpans[uint32]()), elementwise.MinMaxInt("Min", minSpans[uint64]()),
		elementwise.MinMaxInt("Min", minSpans[int8]()), elementwise.MinMaxInt("Min", minSpans[int16]()), elementwise.MinMaxInt("Min", minSpans[int32]()), elementwise.MinMaxInt("Min", minSpans[int64]()),
	}, elementwise.MinMaxF32("Min", minSpans[float32]()), minSpans[float64]())),
}}

func init() {
	register("Min", []int{1, 6, 8, 12, 13}, [2]int{1, -1}, [2]int{1, 1}, minOp.node)
	declareAttrs("Min", consumedInputs)
}

func minSpans[T number]() binarySpans[T, T, T] {
	return binarySpans[T, T, T]{
		Both: func(o, a, b []T) {
			for i := range o {
				o[i] = min(a[i], b[i])
			}
		},
		Left: func(o []T, a T, b []T) {
			for i := range o {
				o[i] = min(a, b[i])
			}
		},
		Right: func(o, a []T, b T) {
			for i := range o {
				o[i] = min(a[i], b)
			}
		},
	}
}
