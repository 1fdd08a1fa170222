// Sub computes A - B elementwise, with broadcasting.
//
// Versions: 1 and 6 broadcast B to A by the legacy rule (attributes
// broadcast and axis; 1 also takes consumed_inputs, which changes nothing);
// from 7 both inputs broadcast to each other (numpy's rule); 6, 13 and 14
// widen the type list. The rules: [type] A's type is one the version allows
// and B's is A's; [broadcast] the shapes broadcast. Integers wrap around on
// overflow, as in C and onnxruntime.

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"

	"github.com/onnxshape/onnxshape/ops/internal/elementwise"
)

var subOp = &binaryOp{
	name: "Sub", types: arithmeticTypes, legacyBefore: 7,
	kernel: fixedKernels(numberBinaries([8]binaryKernel{
		subSpans[uint8](), subSpans[uint16](), subSpans[uint32](), subSpans[uint64](),
		subSpans[int8](), subSpans[int16](), subSpans[int32](), subSpans[int64](),
	}, elementwise.Vectorized("Sub", subSpans[float32]()), elementwise.Vectorized("Sub", subSpans[float64]()))),
}

func init() {
	register("Sub", []int{1, 6, 7, 13, 14}, [2]int{2, 2}, [2]int{1, 1}, subOp.node)
	declareAttrs("Sub", append(legacyBroadcastAttrs(7), consumedInputs)...)
}

// Sub returns a - b, broadcast (ONNX Sub, version 14).
func Sub(a, b *tensor.Tensor, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Sub", 14}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return subOp.apply(opt, &Node{OpType: "Sub", Version: 14}, a, b)
}

func subSpans[T number]() binarySpans[T, T, T] {
	return binarySpans[T, T, T]{
		Both: func(o, a, b []T) {
			for i := range o {
				o[i] = a[i] - b[i]
			}
		},
		Left: func(o []T, a T, b []T) {
			for i := range o {
				o[i] = a - b[i]
			}
		},
		Right: func(o, a []T, b T) {
			for i := range o {
				o[i] = a[i] - b
			}
		},
	}
}
