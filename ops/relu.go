// Relu computes max(0, X) elementwise.
//
// Versions: 1 (floats; consumed_inputs changes nothing), 6, 13 (adds
// bfloat16) and 14 (adds the signed integers). The rule: [type] X's type
// is one the version allows. NaN stays NaN (numpy's maximum, which the ONNX
// reference evaluator uses) and -0 stays -0.

package ops

import (
	"github.com/onnxshape/onnxshape/tensor"

	"github.com/onnxshape/onnxshape/ops/internal/elementwise"
)

var reluOp = &unaryOp{
	name: "Relu", types: versionTypes{1: floatTypes, 6: floatTypes, 13: floatBFTypes, 14: floatBFTypes | signedTypes},
	kernel: fixedUnaries(numberUnaries([8]unaryKernel{
		nil, nil, nil, nil,
		unarySpan[int8, int8](elementwise.Relu[int8]), unarySpan[int16, int16](elementwise.Relu[int16]),
		unarySpan[int32, int32](elementwise.Relu[int32]), unarySpan[int64, int64](elementwise.Relu[int64]),
	}, elementwise.ReluF32, unarySpan[float64, float64](elementwise.Relu[float64]))),
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
