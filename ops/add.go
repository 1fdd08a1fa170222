// Add computes A + B elementwise, with broadcasting.
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

var addOp = &binaryOp{
	name: "Add", types: arithmeticTypes, legacyBefore: 7,
	kernel: fixedKernels(numberBinaries([8]binaryKernel{
		addSpans[uint8](), addSpans[uint16](), addSpans[uint32](), addSpans[uint64](),
		addSpans[int8](), addSpans[int16](), addSpans[int32](), addSpans[int64](),
	}, elementwise.Vectorized("Add", addSpans[float32]()), elementwise.Vectorized("Add", addSpans[float64]()))),
}

func init() {
	register("Add", []int{1, 6, 7, 13, 14}, [2]int{2, 2}, [2]int{1, 1}, addOp.node)
	declareAttrs("Add", append(legacyBroadcastAttrs(7), consumedInputs)...)
}

// Add returns a + b, broadcast (ONNX Add, version 14).
func Add(a, b *tensor.Tensor, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Add", 14}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return addOp.apply(opt, &Node{OpType: "Add", Version: 14}, a, b)
}

func addSpans[T number]() binarySpans[T, T, T] {
	return binarySpans[T, T, T]{
		Both: func(o, a, b []T) {
			for i := range o {
				o[i] = a[i] + b[i]
			}
		},
		Left: func(o []T, a T, b []T) {
			for i := range o {
				o[i] = a + b[i]
			}
		},
		Right: func(o, a []T, b T) {
			for i := range o {
				o[i] = a[i] + b
			}
		},
	}
}
