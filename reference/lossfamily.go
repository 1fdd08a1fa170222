package reference

// What NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss share, as the
// spec's reference writes it (op_negative_log_likelihood_loss.py,
// op_softmax_cross_entropy_loss.py): with input [N, C, D] (d1..dk
// flattened) and target [N, D], loss[n][d] = -input[n][target[n][d]][d]
// unless target[n][d] is ignore_index (then 0); gather_weight[n][d] =
// weight[target[n][d]] (1 without weights), 0 at ignore_index; loss is
// multiplied by gather_weight; "mean" is loss.sum() / gather_weight.sum(),
// "sum" loss.sum(), "none" loss in the target's shape. The spec's reference
// takes an out-of-range target through np.take's mode="clip"; ONNX says a
// target is "in the range of [0, C)" unless ignored, and such a target is
// refused. Computed in float64 (sums in row-major order) and rounded once.

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// lossInputs are a loss node's operands: the (log-)probabilities as
// float64 [N, C, D], the targets, the weights (nil without) and the
// attributes.
type lossInputs struct {
	scores, target, weight *tensor.Tensor
	reduction              string
	ignore                 *int64
	n, c, d                int
}

func readLoss(n *ops.Node, in []tensor.Value, types map[int][]tensor.DataType) (lossInputs, error) {
	op := opOf(n)
	var l lossInputs
	var err error
	if l.scores, err = requiredInput(op, in, 0, "scores"); err != nil {
		return l, err
	}
	if l.target, err = requiredInput(op, in, 1, "target"); err != nil {
		return l, err
	}
	if l.weight, err = optionalInput(op, in, 2); err != nil {
		return l, err
	}
	if l.reduction, err = n.Str("reduction", "mean"); err != nil {
		return l, err
	}
	if n.Has("ignore_index") {
		v, err := n.Int("ignore_index", 0)
		if err != nil {
			return l, err
		}
		l.ignore = &v
	}
	ok := false
	for _, t := range types[n.Version] {
		ok = ok || t == l.scores.DataType()
	}
	if !ok {
		return l, op.errorf("type", "scores of type %v are not allowed in version %d", l.scores.DataType(), n.Version)
	}
	if tt := l.target.DataType(); tt != tensor.Int32 && tt != tensor.Int64 {
		return l, op.errorf("type", "target is %v, expected int32 or int64", tt)
	}
	if l.weight != nil && l.weight.DataType() != l.scores.DataType() {
		return l, op.errorf("type", "weights are %v, expected %v", l.weight.DataType(), l.scores.DataType())
	}
	s := l.scores.Shape()
	if len(s) < 2 {
		return l, op.errorf("shape", "scores have shape %v, expected rank 2 or more", s)
	}
	if !tensor.SameShape(l.target.Shape(), append([]int{s[0]}, s[2:]...)) {
		return l, op.errorf("shape", "target has shape %v for scores %v", l.target.Shape(), s)
	}
	if l.weight != nil && !tensor.SameShape(l.weight.Shape(), []int{s[1]}) {
		return l, op.errorf("shape", "weights have shape %v, expected [%d]", l.weight.Shape(), s[1])
	}
	if l.reduction != "none" && l.reduction != "sum" && l.reduction != "mean" {
		return l, op.errorf("reduction", "reduction is %q, expected none, sum or mean", l.reduction)
	}
	l.n, l.c, l.d = s[0], s[1], 1
	for _, x := range s[2:] {
		l.d *= x
	}
	return l, nil
}

// negativeLogLikelihood is the loss of log-probabilities x ([N, C, D]).
func negativeLogLikelihood(opt *ops.Options, op opRef, l lossInputs, x []float64) (*tensor.Tensor, error) {
	target, _ := l.target.Int64s()
	var weight []float64
	if l.weight != nil {
		weight, _ = l.weight.Float64s()
	}
	loss := make([]float64, l.n*l.d)
	gatherWeight := make([]float64, l.n*l.d)
	for i := range l.n {
		for d := range l.d {
			t := target[i*l.d+d]
			if l.ignore != nil && t == *l.ignore {
				continue // loss 0, gather_weight 0
			}
			if t < 0 || t >= int64(l.c) {
				return nil, op.errorf("target", "target %d at [%d, %d] is outside [0, %d)", t, i, d, l.c)
			}
			gatherWeight[i*l.d+d] = 1
			if weight != nil {
				gatherWeight[i*l.d+d] = weight[t]
			}
			loss[i*l.d+d] = -x[(i*l.c+int(t))*l.d+d] * gatherWeight[i*l.d+d]
		}
	}
	if l.reduction == "none" {
		y, err := newTensor(opt, op, l.scores.DataType(), l.target.Shape())
		if err != nil {
			return nil, err
		}
		for i, v := range loss {
			_ = storeFloat(y, i, v)
		}
		return y, nil
	}
	sum, weights := 0.0, 0.0
	for i := range loss {
		sum += loss[i]
		weights += gatherWeight[i]
	}
	y, err := newTensor(opt, op, l.scores.DataType(), []int{})
	if err != nil {
		return nil, err
	}
	if l.reduction == "mean" {
		sum /= weights
	}
	_ = storeFloat(y, 0, sum)
	return y, nil
}
