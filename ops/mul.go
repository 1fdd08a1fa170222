// Mul computes A * B elementwise, with broadcasting.
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

var mulOp = &binaryOp{
	name: "Mul", types: arithmeticTypes, legacyBefore: 7,
	kernel: fixedKernels(numberBinaries([8]binaryKernel{
		mulSpans[uint8](), mulSpans[uint16](), mulSpans[uint32](), mulSpans[uint64](),
		mulSpans[int8](), mulSpans[int16](), mulSpans[int32](), mulSpans[int64](),
	}, elementwise.Vectorized("Mul", mulSpans[float32]()), elementwise.Vectorized("Mul", mulSpans[float64]()))),
}

func init() {
	register("Mul", []int{1, 6, 7, 13, 14}, [2]int{2, 2}, [2]int{1, 1}, mulNode)
	declareAttrs("Mul", append(legacyBroadcastAttrs(7), consumedInputs)...)
}

// Mul returns a * b, broadcast (ONNX Mul, version 14).
func Mul(a, b *tensor.Tensor, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Mul", 14}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return mulOp.apply(opt, &Node{OpType: "Mul", Version: 14}, a, b)
}

func mulSpans[T number]() binarySpans[T, T, T] {
	return binarySpans[T, T, T]{
		Both: func(o, a, b []T) {
			for i := range o {
				o[i] = a[i] * b[i]
			}
		},
		Left: func(o []T, a T, b []T) {
			for i := range o {
				o[i] = a * b[i]
			}
		},
		Right: func(o, a []T, b T) {
			for i := range o {
				o[i] = a[i] * b
			}
		},
	}
}
