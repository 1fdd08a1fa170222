// NegativeLogLikelihoodLoss (12, 13, 22). ONNX Operators.md: "A
// NegativeLogLikelihoodLoss operator computes (weighted) negative log
// likelihood loss. Its 'input' tensor has the shape of (N, C, d1, d2, ...,
// dk) ... The 'input' tensor contains log-probabilities for input[n, :,
// d_1, d_2,..., d_k] being in a class of [0, C)." loss[n][d_1]...[d_k] =
// -input[n][c][d_1]...[d_k] * weight[c], c = target[n][d_1]...[d_k], 0
// where c is ignore_index; reduction none, sum or mean (the default, the
// sum divided by the sum of the weights taken). Types: float16, float,
// double, and bfloat16 from 22. (lossfamily.go)

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

var nllTypes = map[int][]tensor.DataType{
	12: {tensor.Float16, tensor.Float, tensor.Double},
	13: {tensor.Float16, tensor.Float, tensor.Double},
	22: {tensor.Float16, tensor.Float, tensor.Double, tensor.BFloat16},
}

func init() {
	register("NegativeLogLikelihoodLoss", []int{12, 13, 22}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		op := opOf(n)
		l, err := readLoss(n, in, nllTypes)
		if err != nil {
			return nil, err
		}
		x, _ := l.scores.Float64s()
		y, err := negativeLogLikelihood(opt, op, l, x)
		if err != nil {
			return nil, err
		}
		return values(y), nil
	})
}
