// Mean computes the elementwise mean of one or more inputs: their sum (as
// Sum adds them, first to last) divided by their count.
//
// Versions: 1 (consumed_inputs changes nothing) and 6 take inputs of one
// shape; from 8 the inputs broadcast to each other; 13 adds bfloat16. The
// rules: as Sum's.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/elementwise"
	"github.com/onnxshape/onnxshape/tensor"
)

var meanOp = &variadicOp{
	binaryOp: binaryOp{
		name: "Mean", types: versionTypes{1: floatTypes, 6: floatTypes, 8: floatTypes, 13: floatBFTypes},
		kernel: addOp.kernel,
	},
	finish: divideByCount,
}

func init() {
	register("Mean", []int{1, 6, 8, 13}, [2]int{1, -1}, [2]int{1, 1}, meanOp.node)
	declareAttrs("Mean", consumedInputs)
}

// Division by the count runs Div's loops with a scalar divisor (the AVX
// loops for the bulk), the same quotients as one at a time; the loops are
// made once, not at every run.
var (
	meanDivF32 = elementwise.Vectorized("Div", floatDivSpans[float32]())
	meanDivF64 = elementwise.Vectorized("Div", floatDivSpans[float64]())
)

// divideByCount divides the sum in place by the number of inputs, in the
// sum's type (float16 and bfloat16 through float32).
func divideByCount(opt *Options, op opRef, sum *tensor.Tensor, count int) error {
	var k unaryKernel
	f32, f64 := meanDivF32, meanDivF64
	switch sum.DataType() {
	case tensor.Float:
		k = unarySpan[float32, float32](func(o, a []float32) { f32.Right(o, a, float32(count)) })
	case tensor.Double:
		k = unarySpan[float64, float64](func(o, a []float64) { f64.Right(o, a, float64(count)) })
	case tensor.Float16, tensor.BFloat16:
		k = halfUnary[float32]{sum.DataType() == tensor.BFloat16, func(o, a []float32) { f32.Right(o, a, float32(count)) }}
	default:
		return op.errorf("type", "no kernel for type %v", sum.DataType())
	}
	if err := k.Run(opt.elementwise(), sum, sum); err != nil {
		return op.wrap("cancelled", err, "run stopped")
	}
	return nil
}
