// Sigmoid computes the logistic function 1/(1+exp(-X)) elementwise.
//
// Versions: 1, 6 and 13; they differ only in the types they allow (1 also
// takes consumed_inputs, which changes nothing). The rule: [type] X's type
// is one the version allows. float32 is mathf.Sigmoid's float32 algorithm
// (at most 3 ulps from the exact value; AVX2 and AVX-512 on amd64, a large
// call with streaming stores), which the
// reference engine states too; float16 and bfloat16 through float32;
// float64 is 1/(1+math.Exp(-x)).

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/mathf"
	"github.com/onnxshape/onnxshape/tensor"
)

var sigmoidOp = &unaryOp{
	name: "Sigmoid", types: versionTypes{1: floatTypes, 6: floatTypes, 13: floatBFTypes},
	kernel: fixedUnaries(float32StreamedFunction(mathf.SigmoidsTo, mathf.SigmoidsToStreamed, sigmoid)),
}

func init() {
	register("Sigmoid", []int{1, 6, 13}, [2]int{1, 1}, [2]int{1, 1}, sigmoidOp.node)
	declareAttrs("Sigmoid", consumedInputs)
}

// Sigmoid returns the logistic function of x elementwise (ONNX Sigmoid,
// version 13).
func Sigmoid(x *tensor.Tensor, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"Sigmoid", 13}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return sigmoidOp.apply(opt, &Node{OpType: "Sigmoid", Version: 13}, x)
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
