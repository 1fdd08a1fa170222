// Relu computes max(0, X) elementwise.
//
// Versions: 1 (floats; consumed_inputs changes nothing), 6, 13 (adds
// bfloat16) and 14 (adds the signed integers). The rule: [type] X's type
// is one the version allows. NaN stays NaN (numpy's maximum, which the ONNX
// reference evaluator uses) and -0 stays -0.

package ops

import "github.com/onnxshape/onnxshape/tensor"

var reluOp = &unaryOp{
	name: "Relu", types: versionTypes{1: floatTypes, 6: floatTypes, 13: floatBFTypes, 14: floatBFTypes | signedTypes},
	kernel: fixedUnaries(numberUnaries([8]unaryKernel{
		nil, nil, nil, nil,
		unarySpan[int8, int8](reluSpan[int8]), unarySpan[int16, int16](reluSpan[int16]),
		unarySpan[int32, int32](reluSpan[int32]), unarySpan[int64, int64](reluSpan[int64]),
	}, reluF32, unarySpan[float64, float64](reluSpan[float64]))),
}

func init() {
	register("Relu", []int{1, 6, 13, 14}, [2]int{1, 1}, [2]int{1, 1}, reluOp.node)
	declareAttrs("Relu", consumedInputs)
}

// Relu returns max(0, x) elementwise (ONNX Relu, version 14).
func Relu(x *tensor.Tensor, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Relu", 14}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return reluOp.apply(opt, &Node{OpType: "Relu", Version: 14}, x)
}

func reluSpan[T signedNumber](o, a []T) {
	for i, x := range a[:len(o)] {
		if x < 0 {
			x = 0
		}
		o[i] = x
	}
}
