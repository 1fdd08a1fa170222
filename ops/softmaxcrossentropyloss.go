// SoftmaxCrossEntropyLoss is NegativeLogLikelihoodLoss of the log-softmax
// of scores ([N, C] or [N, C, d1, ..., dk]) along the classes (axis 1);
// its optional second output log_prob is that log-softmax, in the scores'
// shape. The rules and the reduction are the losses' (negativeloglikelihoodloss.go); the
// log-softmax is (x - m) - log(sum of exp(x - m)) in float64, m the
// slice's largest score.
//
// Versions: 12 (float16, float, double) and 13 (adds bfloat16).

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/ops/internal/reduce"
	"github.com/onnxshape/onnxshape/tensor"
)

var sceLossOp = lossOperator{name: "SoftmaxCrossEntropyLoss",
	types: versionTypes{12: floatTypes, 13: floatBFTypes}}

func init() { registerLoss(sceLossOp, []int{12, 13}, 2, sceLossNode) }

// SoftmaxCrossEntropyLoss returns the loss of scores against target and
// the log-probabilities (ONNX SoftmaxCrossEntropyLoss, version 13);
// weight may be nil.
func SoftmaxCrossEntropyLoss(scores, target, weight *tensor.Tensor, o LossOptions, opts ...Option) (loss, logProb *tensor.Tensor, err error) {
	op := opRef{sceLossOp.name, 13}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, nil, err
	}
	if err := checkInput(op, "scores", scores); err != nil {
		return nil, nil, err
	}
	if err := checkInput(op, "target", target); err != nil {
		return nil, nil, err
	}
	return sceLoss(opt, op, o.params(scores, target, weight), true)
}

func sceLossNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	p, err := sceLossOp.params(n, in)
	if err != nil {
		return nil, err
	}
	loss, logProb, err := sceLoss(opt, n.op(), p, n.NumOutputs > 1)
	if err != nil {
		return nil, err
	}
	if n.NumOutputs > 1 {
		return values(loss, logProb), nil
	}
	return values(loss), nil
}

func sceLoss(opt *Options, op opRef, p lossParams, wantLogProb bool) (loss, logProb *tensor.Tensor, err error) {
	opt = opt.orDefault()
	n, c, d, err := sceLossOp.layout(op, p)
	if err != nil {
		return nil, nil, err
	}
	if err := opt.scratch(op, "the scores and their log-softmax in float64", p.scores.Len(), 16); err != nil {
		return nil, nil, err
	}
	x, err := p.scores.Float64s()
	if err != nil {
		return nil, nil, op.wrap("type", err, "scores")
	}
	cc := opt.canceller()
	lp := reduce.LogSoftmaxAxis1(&cc, x, n, c, d)
	if lp == nil {
		return nil, nil, op.stopped(cc.Err)
	}
	loss, err = sceLossOp.lossFromLogProbs(opt, op, p, lp, n, c, d)
	if err != nil || !wantLogProb {
		return loss, nil, err
	}
	if logProb, err = opt.newOverwritten(op, p.scores.DataType(), p.scores.Shape()); err != nil {
		return nil, nil, err
	}
	if err := convert.StoreFloats(logProb, lp); err != nil {
		return nil, nil, op.wrap("type", err, "log_prob")
	}
	return loss, logProb, nil
}
