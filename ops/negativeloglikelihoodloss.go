// NegativeLogLikelihoodLoss is the loss of log-probabilities input ([N, C]
// or [N, C, d1, ..., dk]) against class indices target ([N] or [N, d1,
// ..., dk]): -input[n][target[n][d]][d], weighted by weight[target] when
// given, 0 where the target is ignore_index, then reduced (none, sum or
// the weighted mean, the default); see below.
//
// Versions: 12, 13 (float16, float, double) and 22 (adds bfloat16). The
// rules, in order: [type] of input, target and weight, [shape] of target
// and weight, [reduction], [target] every index in [0, C) or ignore_index.

package ops

import (
	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/tensor"
)

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

// What NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss share: the
// rules on the scores, the target and the weights, and the weighted
// gather and reduction that turn log-probabilities into the loss.
//
// The scores are [N, C] or [N, C, d1, ..., dk], the target [N] or [N, d1,
// ..., dk] of int32 or int64 class indices, the optional weight [C] of the
// scores' type. The loss of one element is -lp[n][t][d] * weight[t] (1
// without weights), 0 where t is ignore_index; reduction "none" returns
// them in the target's shape, "sum" their sum, "mean" their sum divided
// by the sum of the weights taken (the count of elements not ignored
// without weights: 0/0 is NaN when every element is ignored, as the
// spec's reference gives). A target outside [0, C) that is not
// ignore_index is refused. Everything is computed in float64 and rounded
// once to the output type; sums go in row-major order.

// lossOperator describes one loss: its name and the types each version
// takes.
type lossOperator struct {
	name  string
	types versionTypes
}

func registerLoss(l lossOperator, versions []int, outputs int, run Kernel) {
	register(l.name, versions, [2]int{2, 3}, [2]int{1, outputs}, run)
	declareAttrs(l.name, AttrSpec{Name: "ignore_index", Type: AttrInt}, AttrSpec{Name: "reduction", Type: AttrString})
}

// lossParams are a loss node's operands and attributes.
type lossParams struct {
	scores, target, weight *tensor.Tensor
	reduction              string
	ignore                 int64
	hasIgnore              bool
}

func (l lossOperator) params(n *Node, in []tensor.Value) (lossParams, error) {
	var p lossParams
	var err error
	if p.scores, err = n.requiredInput(in, 0, "scores"); err != nil {
		return p, err
	}
	if p.target, err = n.requiredInput(in, 1, "target"); err != nil {
		return p, err
	}
	if p.weight, err = n.tensorInput(in, 2); err != nil {
		return p, err
	}
	if p.reduction, err = n.Str("reduction", "mean"); err != nil {
		return p, err
	}
	// ignore_index has no default: absent, no target is ignored.
	a, ok, err := n.attr("ignore_index", AttrInt)
	p.hasIgnore, p.ignore = ok, a.Int
	return p, err
}

// lossLayout checks p in the order of the rules and returns N, C and D
// (the product of d1..dk).
func (l lossOperator) layout(op opRef, p lossParams) (n, c, d int, err error) {
	if err := l.types.check(op, "scores", p.scores.DataType()); err != nil {
		return 0, 0, 0, err
	}
	if tt := p.target.DataType(); tt != tensor.Int32 && tt != tensor.Int64 {
		return 0, 0, 0, op.errorf("type", "target is %v, expected int32 or int64", tt)
	}
	if p.weight != nil && p.weight.DataType() != p.scores.DataType() {
		return 0, 0, 0, op.errorf("type", "weights are %v, expected the scores' type %v", p.weight.DataType(), p.scores.DataType())
	}
	s := p.scores.Shape()
	if len(s) < 2 {
		return 0, 0, 0, op.errorf("shape", "scores have shape %v, expected [N, C] or [N, C, d1, ..., dk]", s)
	}
	want := append([]int{s[0]}, s[2:]...)
	if !tensor.SameShape(p.target.Shape(), want) {
		return 0, 0, 0, op.errorf("shape", "target has shape %v, expected %v for scores %v", p.target.Shape(), want, s)
	}
	if p.weight != nil && !tensor.SameShape(p.weight.Shape(), []int{s[1]}) {
		return 0, 0, 0, op.errorf("shape", "weights have shape %v, expected [%d]", p.weight.Shape(), s[1])
	}
	switch p.reduction {
	case "none", "sum", "mean":
	default:
		return 0, 0, 0, op.errorf("reduction", "reduction is %q, expected none, sum or mean", p.reduction)
	}
	n, c, d = s[0], s[1], 1
	for _, x := range s[2:] {
		d *= x
	}
	return n, c, d, nil
}

// lossOutputShape is the loss's shape: the target's for reduction none,
// a scalar otherwise.
func lossOutputShape(p lossParams) []int {
	if p.reduction == "none" {
		return p.target.Shape()
	}
	return []int{}
}

// lossFromLogProbs returns the loss of log-probabilities lp ([N, C, D] in
// float64) under p, as a tensor of the scores' type.
func (l lossOperator) lossFromLogProbs(opt *Options, op opRef, p lossParams, lp []float64, n, c, d int) (*tensor.Tensor, error) {
	targets, err := p.target.Int64s()
	if err != nil {
		return nil, op.wrap("type", err, "target")
	}
	var weights []float64
	if p.weight != nil {
		if weights, err = p.weight.Float64s(); err != nil {
			return nil, op.wrap("type", err, "weights")
		}
	}
	y, err := opt.newOverwritten(op, p.scores.DataType(), lossOutputShape(p))
	if err != nil {
		return nil, err
	}
	var each []float64
	if p.reduction == "none" {
		if err := opt.scratch(op, "the losses in float64", n*d, 8); err != nil {
			return nil, err
		}
		each = make([]float64, n*d)
	}
	cc := opt.canceller()
	var sum, taken float64
	for i := range n {
		if cc.Stop(d) {
			return nil, op.stopped(cc.Err)
		}
		for j := range d {
			t := targets[i*d+j]
			if p.hasIgnore && t == p.ignore {
				continue
			}
			if t < 0 || t >= int64(c) {
				return nil, op.errorf("target", "target %d at [%d, %d] is outside [0, %d) and is not ignore_index", t, i, j, c)
			}
			w := 1.0
			if weights != nil {
				w = weights[t]
			}
			v := -lp[(i*c+int(t))*d+j] * w
			if each != nil {
				each[i*d+j] = v
			}
			sum += v
			taken += w
		}
	}
	switch p.reduction {
	case "none":
		err = convert.StoreFloats(y, each)
	case "sum":
		err = convert.StoreFloats(y, []float64{sum})
	default:
		// Without weights or ignore_index the mean is over every element.
		err = convert.StoreFloats(y, []float64{sum / taken})
	}
	if err != nil {
		return nil, op.wrap("type", err, "loss")
	}
	return y, nil
}
