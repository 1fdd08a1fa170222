// NegativeLogLikelihoodLoss is the loss of log-probabilities input ([N, C]
// or [N, C, d1, ..., dk]) against class indices target ([N] or [N, d1,
// ..., dk]): -input[n][target[n][d]][d], weighted by weight[target] when
// given, 0 where the target is ignore_index, then reduced (none, sum or
// the weighted mean, the default); see lossfamily.go.
//
// Versions: 12, 13 (float16, float, double) and 22 (adds bfloat16). The
// rules, in order: [type] of input, target and weight, [shape] of target
// and weight, [reduction], [target] every index in [0, C) or ignore_index.

package ops

import "github.com/onnxshape/onnxshape/tensor"

var nllLossOp = lossOperator{name: "NegativeLogLikelihoodLoss",
	types: versionTypes{12: floatTypes, 13: floatTypes, 22: floatBFTypes}}

func init() { registerLoss(nllLossOp, []int{12, 13, 22}, 1, nllLossNode) }

// LossOptions are the attributes of the losses: Reduction "" means "mean";
// IgnoreIndex is read only when HasIgnoreIndex is set.
type LossOptions struct {
	Reduction      string
	IgnoreIndex    int64
	HasIgnoreIndex bool
}

func (o LossOptions) params(scores, target, weight *tensor.Tensor) lossParams {
	r := o.Reduction
	if r == "" {
		r = "mean"
	}
	return lossParams{scores: scores, target: target, weight: weight, reduction: r, ignore: o.IgnoreIndex, hasIgnore: o.HasIgnoreIndex}
}

// NegativeLogLikelihoodLoss returns the loss of log-probabilities input
// against target (ONNX NegativeLogLikelihoodLoss, version 22); weight may
// be nil.
func NegativeLogLikelihoodLoss(input, target, weight *tensor.Tensor, o LossOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{nllLossOp.name, 22}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	if err := checkInput(op, "input", input); err != nil {
		return nil, err
	}
	if err := checkInput(op, "target", target); err != nil {
		return nil, err
	}
	return nllLoss(opt, op, o.params(input, target, weight))
}

func nllLossNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	p, err := nllLossOp.params(n, in)
	if err != nil {
		return nil, err
	}
	y, err := nllLoss(opt, n.op(), p)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

func nllLoss(opt *Options, op opRef, p lossParams) (*tensor.Tensor, error) {
	opt = opt.orDefault()
	n, c, d, err := nllLossOp.layout(op, p)
	if err != nil {
		return nil, err
	}
	if err := opt.scratch(op, "the input in float64", p.scores.Len(), 8); err != nil {
		return nil, err
	}
	lp, err := p.scores.Float64s()
	if err != nil {
		return nil, op.wrap("type", err, "input")
	}
	return nllLossOp.lossFromLogProbs(opt, op, p, lp, n, c, d)
}
