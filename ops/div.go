// Div computes A / B elementwise, with broadcasting.
//
// Versions: 1 and 6 broadcast B to A by the legacy rule (attributes
// broadcast and axis; 1 also takes consumed_inputs, which changes nothing);
// from 7 both inputs broadcast to each other; 6, 13 and 14 widen the type
// list. The rules: [type] A's type is one the version allows and B's is
// A's; [broadcast] the shapes broadcast. Integer division truncates toward
// zero (C's rule, onnxruntime's and the ONNX reference evaluator's).
// Integer division by zero, which the spec leaves undefined and which
// crashes onnxruntime, gives 0 (numpy's and the reference evaluator's
// result) under ONNX and is refused under SONNX ([zero-divisor]); float
// division follows IEEE 754 (x/0 is ±Inf or NaN).

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"

	"github.com/onnxshape/onnxshape/ops/internal/elementwise"
)

var divOp = &binaryOp{
	name: "Div", types: arithmeticTypes, legacyBefore: 7,
	kernel: fixedKernels(numberBinaries([8]binaryKernel{
		intDivSpans[uint8](), intDivSpans[uint16](), intDivSpans[uint32](), intDivSpans[uint64](),
		intDivSpans[int8](), intDivSpans[int16](), intDivSpans[int32](), intDivSpans[int64](),
	}, elementwise.Vectorized("Div", floatDivSpans[float32]()), elementwise.Vectorized("Div", floatDivSpans[float64]()))),
	check: refuseZeroDivisor,
}

func init() {
	register("Div", []int{1, 6, 7, 13, 14}, [2]int{2, 2}, [2]int{1, 1}, divOp.node)
	declareAttrs("Div", append(legacyBroadcastAttrs(7), consumedInputs)...)
}

// Div returns a / b, broadcast (ONNX Div, version 14).
func Div(a, b *tensor.Tensor, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Div", 14}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return divOp.apply(opt, &Node{OpType: "Div", Version: 14}, a, b)
}

// refuseZeroDivisor refuses, under SONNX, an integer divisor holding a
// zero: the result is undefined.
func refuseZeroDivisor(opt *Options, op opRef, a, b *tensor.Tensor) error {
	if opt.Profile == ProfileSONNX && b.DataType().IsInteger() && hasZero(b) {
		return op.errorf("zero-divisor", "integer divisor B holds a zero; the result is undefined")
	}
	return nil
}

func floatDivSpans[T floating]() binarySpans[T, T, T] {
	return binarySpans[T, T, T]{
		Both: func(o, a, b []T) {
			for i := range o {
				o[i] = a[i] / b[i]
			}
		},
		Left: func(o []T, a T, b []T) {
			for i := range o {
				o[i] = a / b[i]
			}
		},
		Right: func(o, a []T, b T) {
			for i := range o {
				o[i] = a[i] / b
			}
		},
	}
}

// intDivSpans divides toward zero; a zero divisor gives 0. Go's division
// of the least signed value by -1 wraps to itself without a panic.
func intDivSpans[T integer]() binarySpans[T, T, T] {
	return binaryFunc(func(a, b T) T {
		if b == 0 {
			return 0
		}
		return a / b
	})
}
