// SoftmaxCrossEntropyLoss (12, 13). ONNX Operators.md: "Loss function that
// measures the softmax cross entropy between 'scores' and 'labels'. ...
// shape(scores): (N, C) where C is the number of classes, or (N, C, D1,
// D2,..., Dk) ... The loss for one sample, l_i, can calculated as follows:
// l[i][d1][d2]...[dk] = -y[i][c][d1][d2]..[dk], where i is the index of
// classes. or l[i][d1][d2]...[dk] = -y[i][c][d1][d2]..[dk] * weights[c],
// if 'weights' is provided." y is log(softmax(scores)) along the classes,
// computed as (x - max) - log(sum(exp(x - max))); the rest is
// NegativeLogLikelihoodLoss's (lossfamily.go). The optional second output
// log_prob is y in the scores' shape. Types: float16, float, double, and
// bfloat16 from 13.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

var sceTypes = map[int][]tensor.DataType{
	12: {tensor.Float16, tensor.Float, tensor.Double},
	13: {tensor.Float16, tensor.Float, tensor.Double, tensor.BFloat16},
}

func init() {
	register("SoftmaxCrossEntropyLoss", []int{12, 13}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		op := opOf(n)
		l, err := readLoss(n, in, sceTypes)
		if err != nil {
			return nil, err
		}
		x, _ := l.scores.Float64s()
		logProb := make([]float64, len(x))
		for i := range l.n {
			for d := range l.d {
				at := func(c int) int { return (i*l.c+c)*l.d + d }
				m := math.Inf(-1)
				for c := range l.c {
					m = math.Max(m, x[at(c)])
				}
				s := 0.0
				for c := range l.c {
					s += math.Exp(x[at(c)] - m)
				}
				for c := range l.c {
					logProb[at(c)] = x[at(c)] - m - math.Log(s)
				}
			}
		}
		loss, err := negativeLogLikelihood(opt, op, l, logProb)
		if err != nil {
			return nil, err
		}
		if n.NumOutputs < 2 {
			return values(loss), nil
		}
		y, err := newTensor(opt, op, l.scores.DataType(), l.scores.Shape())
		if err != nil {
			return nil, err
		}
		for i, v := range logProb {
			_ = storeFloat(y, i, v)
		}
		return values(loss, y), nil
	})
}
