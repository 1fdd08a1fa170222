// FlexAttention (domain ai.onnx.preview) is scaled dot-product attention
// whose scores and probabilities pass through subgraphs the model gives
// (PyTorch's flex_attention): Scores = (Q K^T) * scale, Scores =
// score_mod(Scores), Probs = Softmax(Scores) over the keys, Probs =
// prob_mod(Probs), Y = Probs V. Q is [B, Hq, L, E], K [B, Hkv, S, E], V
// [B, Hkv, S, Ev] and Y [B, Hq, L, Ev]; query head h reads key/value head
// h / (Hq/Hkv). score_mod and prob_mod take and return one [B, Hq, L, S]
// tensor of the softmax precision's type; masking is a score_mod that
// writes -Inf (a row whose every score is -Inf gives NaN, as the spec's
// reference and function body do).
//
// Versions: 1 (of ai.onnx.preview). Types: Q, K and V of one of float16,
// float, double, bfloat16. scale defaults to 1/sqrt(E);
// softmax_precision (float 1, float16 10, double 11, bfloat16 16)
// defaults to float for every type but double.
//
// The rules, in order: [type]; [rank] Q, K, V 4-D; [shape] K and V
// agree in batch, heads and length, Q and K in batch and E, Hq a multiple
// of Hkv; [softmax_precision]; [score_mod] and [prob_mod] each a graph of
// one input and one output, whose output has the scores' shape and the
// precision's type.
//
// As the spec's function body does, Q and K are each multiplied by
// sqrt(scale) (computed in float32, rounded to Q's type) and rounded to
// their type, the product Q K^T is rounded to that type and then to the
// precision's; the probabilities, V and the output are rounded to the
// precision's type, the output then to Q's. The arithmetic between those
// points is float32, or float64 when Q or the precision is double: the
// products through gemm and the exponentials of the attention engine
// (ops/internal/attention, Dense). The score matrix is held whole (the
// subgraphs see all of it) and charged; it agrees with the reference
// engine within the bound reference.Agree states.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/attention"
	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/tensor"
)

const previewDomain = "ai.onnx.preview"

func init() {
	registerIn(previewDomain, "FlexAttention", []int{1}, [2]int{3, 3}, [2]int{1, 1}, flexAttentionNode)
	declareAttrsIn(previewDomain, "FlexAttention",
		AttrSpec{Name: "scale", Type: AttrFloat}, AttrSpec{Name: "softmax_precision", Type: AttrInt},
		AttrSpec{Name: "score_mod", Type: AttrGraph}, AttrSpec{Name: "prob_mod", Type: AttrGraph})
}

// FlexAttentionOptions are FlexAttention's attributes; the zero value is
// the ONNX default (Scale 0: 1/sqrt(E); SoftmaxPrecision 0: float, double
// for double inputs; no subgraphs).
type FlexAttentionOptions struct {
	Scale            float32
	SoftmaxPrecision tensor.DataType
	ScoreMod         *Subgraph
	ProbMod          *Subgraph
}

// FlexAttention computes attention with the optional score and
// probability modifiers (ONNX preview FlexAttention, version 1).
func FlexAttention(q, k, v *tensor.Tensor, o FlexAttentionOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"FlexAttention", 1}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	for _, r := range []struct {
		name string
		t    *tensor.Tensor
	}{{"Q", q}, {"K", k}, {"V", v}} {
		if err := checkInput(op, r.name, r.t); err != nil {
			return nil, err
		}
	}
	a := flexAttrs{scale: o.Scale, hasScale: o.Scale != 0, precision: int64(o.SoftmaxPrecision),
		hasPrecision: o.SoftmaxPrecision != tensor.Undefined, scoreMod: o.ScoreMod, probMod: o.ProbMod}
	return flexAttention(opt, op, q, k, v, a)
}

type flexAttrs struct {
	scale             float32
	hasScale          bool
	precision         int64
	hasPrecision      bool
	scoreMod, probMod *Subgraph
}

func flexAttentionNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	var qkv [3]*tensor.Tensor
	var err error
	for i, name := range []string{"Q", "K", "V"} {
		if qkv[i], err = n.requiredInput(in, i, name); err != nil {
			return nil, err
		}
	}
	var a flexAttrs
	a.hasScale = n.Has("scale")
	if a.scale, err = n.Float("scale", 0); err != nil {
		return nil, err
	}
	a.hasPrecision = n.Has("softmax_precision")
	if a.precision, err = n.Int("softmax_precision", 0); err != nil {
		return nil, err
	}
	if a.scoreMod, err = n.GraphAttr("score_mod"); err != nil {
		return nil, err
	}
	if a.probMod, err = n.GraphAttr("prob_mod"); err != nil {
		return nil, err
	}
	y, err := flexAttention(opt, n.op(), qkv[0], qkv[1], qkv[2], a)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

// flexPlan is a checked FlexAttention call.
type flexPlan struct {
	batch, qHeads, kvHeads, qSeq, kvSeq, headK, headV int
	precision                                         tensor.DataType
}

// flexAttentionCheck checks the operands in the order of the rules.
func flexAttentionCheck(op opRef, q, k, v *tensor.Tensor, a flexAttrs) (flexPlan, error) {
	var p flexPlan
	dt := q.DataType()
	if !attentionFloatTypes.has(dt) {
		return p, op.errorf("type", "Q is %v; FlexAttention takes float16, float, double or bfloat16", dt)
	}
	if k.DataType() != dt || v.DataType() != dt {
		return p, op.errorf("type", "K is %v and V %v, expected Q's type %v", k.DataType(), v.DataType(), dt)
	}
	if q.Rank() != 4 || k.Rank() != 4 || v.Rank() != 4 {
		return p, op.errorf("rank", "Q %v, K %v and V %v must be 4-D", q.Shape(), k.Shape(), v.Shape())
	}
	qs, ks, vs := q.Shape(), k.Shape(), v.Shape()
	p.batch, p.qHeads, p.qSeq, p.headK = qs[0], qs[1], qs[2], qs[3]
	p.kvHeads, p.kvSeq, p.headV = ks[1], ks[2], vs[3]
	switch {
	case ks[0] != p.batch || vs[0] != p.batch:
		return p, op.errorf("shape", "Q %v, K %v and V %v must share the batch", qs, ks, vs)
	case vs[1] != p.kvHeads || vs[2] != p.kvSeq:
		return p, op.errorf("shape", "K %v and V %v must share the heads and the sequence length", ks, vs)
	case ks[3] != p.headK:
		return p, op.errorf("shape", "Q %v and K %v must share the head size", qs, ks)
	case p.kvHeads == 0 && p.qHeads != 0, p.kvHeads != 0 && p.qHeads%p.kvHeads != 0:
		return p, op.errorf("shape", "Q's %d heads must be a multiple of K's %d", p.qHeads, p.kvHeads)
	}
	p.precision = tensor.Float
	if dt == tensor.Double {
		p.precision = tensor.Double
	}
	if a.hasPrecision {
		switch tensor.DataType(a.precision) {
		case tensor.Float, tensor.Float16, tensor.Double, tensor.BFloat16:
			p.precision = tensor.DataType(a.precision)
		default:
			return p, op.errorf("softmax_precision", "softmax_precision is %d, expected float (1), float16 (10), double (11) or bfloat16 (16)", a.precision)
		}
	}
	for _, m := range []struct {
		name string
		g    *Subgraph
	}{{"score_mod", a.scoreMod}, {"prob_mod", a.probMod}} {
		if m.g != nil && (m.g.Run == nil || m.g.Inputs != 1 || m.g.Outputs != 1) {
			return p, op.errorf(m.name, "%s must be a graph of one input and one output, it has %d and %d", m.name, m.g.Inputs, m.g.Outputs)
		}
	}
	return p, nil
}

// flexAttentionOutputShape returns Y's shape.
func flexAttentionOutputShape(p flexPlan) []int {
	return []int{p.batch, p.qHeads, p.qSeq, p.headV}
}

func flexAttention(opt *Options, op opRef, q, k, v *tensor.Tensor, a flexAttrs) (*tensor.Tensor, error) {
	opt = opt.orDefault()
	p, err := flexAttentionCheck(op, q, k, v, a)
	if err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, q.DataType(), flexAttentionOutputShape(p))
	if err != nil {
		return nil, err
	}
	if q.DataType() == tensor.Double || p.precision == tensor.Double {
		err = flexAttentionAs[float64](opt, op, q, k, v, a, p, y)
	} else {
		err = flexAttentionAs[float32](opt, op, q, k, v, a, p, y)
	}
	if err != nil {
		return nil, err
	}
	return y, nil
}

// flexAttentionAs computes in A (float32 or float64).
func flexAttentionAs[A float32 | float64](opt *Options, op opRef, q, k, v *tensor.Tensor, a flexAttrs, p flexPlan, y *tensor.Tensor) error {
	dt := q.DataType()
	// own returns a copy of t in A that the kernel may change.
	own := func(t *tensor.Tensor) ([]A, error) {
		if err := opt.scratch(op, "an input in the computing type", t.Len(), sizeOfFloat[A]()); err != nil {
			return nil, err
		}
		x, err := convert.LoadFloatsPolled[A](opt.env.Ctx, t)
		if err != nil {
			return nil, err
		}
		if convert.NativeFloat[A](t.DataType()) {
			x = append([]A(nil), x...)
		}
		return x, nil
	}
	scale := 1 / math.Sqrt(float64(p.headK))
	if a.hasScale {
		scale = float64(a.scale)
	}
	root := A(convert.RoundToType(dt, float64(float32(math.Sqrt(float64(float32(scale)))))))
	d := &attention.Dense[A]{Batch: p.batch, QHeads: p.qHeads, KVHeads: p.kvHeads, QSeq: p.qSeq, KVSeq: p.kvSeq, HeadK: p.headK, HeadV: p.headV}
	var err error
	if d.Q, err = own(q); err != nil {
		return err
	}
	if d.K, err = own(k); err != nil {
		return err
	}
	for _, x := range [][]A{d.Q, d.K} {
		for i := range x {
			x[i] *= root
		}
		roundSliceTo(dt, x)
	}
	n := p.batch * p.qHeads * p.qSeq * p.kvSeq
	if err := opt.scratch(op, "the scores", n, sizeOfFloat[A]()); err != nil {
		return err
	}
	d.Scores = make([]A, n)
	o := opt.orDefault()
	cfg := attention.Config{Ctx: o.env.Ctx, Threads: o.threads(), Charge: o.Charge}
	if err := attention.DenseScores(cfg, d); err != nil {
		return attentionErr(op, err)
	}
	d.Q, d.K = nil, nil
	roundSliceTo(dt, d.Scores)
	roundSliceTo(p.precision, d.Scores)
	if err := flexModify(opt, op, "score_mod", a.scoreMod, p, d.Scores); err != nil {
		return err
	}
	if err := attention.DenseSoftmax(cfg, d); err != nil {
		return attentionErr(op, err)
	}
	roundSliceTo(p.precision, d.Scores)
	if err := flexModify(opt, op, "prob_mod", a.probMod, p, d.Scores); err != nil {
		return err
	}
	if d.V, err = own(v); err != nil {
		return err
	}
	roundSliceTo(p.precision, d.V)
	var flush func()
	if d.Y, flush, err = attentionOut[A](opt, op, y); err != nil {
		return err
	}
	if err := attention.DenseValues(cfg, d); err != nil {
		return attentionErr(op, err)
	}
	roundSliceTo(p.precision, d.Y)
	flush()
	return nil
}

// flexModify runs modifier g (score_mod or prob_mod, nil for none) on
// the [B, Hq, L, S] tensor s holds, in the precision's type, and puts
// its result back into s.
func flexModify[A float32 | float64](opt *Options, op opRef, name string, g *Subgraph, p flexPlan, s []A) error {
	if g == nil {
		return nil
	}
	shape := []int{p.batch, p.qHeads, p.qSeq, p.kvSeq}
	t, err := opt.newOverwritten(op, p.precision, shape)
	if err != nil {
		return err
	}
	if err := convert.StoreFloatsPolled(opt.env.Ctx, t, s); err != nil {
		return op.stopped(err)
	}
	out, err := g.Run(opt, []tensor.Value{t})
	if err != nil {
		return err
	}
	if len(out) != 1 {
		return op.errorf(name, "%s produced %d outputs, expected 1", name, len(out))
	}
	r, ok := out[0].(*tensor.Tensor)
	if !ok || r == nil {
		return op.errorf(name, "%s produced %s, expected a tensor", name, describeValue(out[0]))
	}
	if r.DataType() != p.precision || !tensor.SameShape(r.Shape(), shape) {
		return op.errorf(name, "%s produced %v %v, expected %v %v", name, r.DataType(), r.Shape(), p.precision, shape)
	}
	if !convert.NativeFloat[A](r.DataType()) {
		if err := opt.scratch(op, name+"'s output in the computing type", r.Len(), sizeOfFloat[A]()); err != nil {
			return err
		}
	}
	vals, err := convert.LoadFloatsPolled[A](opt.env.Ctx, r)
	if err != nil {
		return op.stopped(err)
	}
	copy(s, vals)
	return nil
}

// describeValue names a value's kind for an error.
func describeValue(v tensor.Value) string {
	if v == nil {
		return "no value"
	}
	return v.Describe()
}

// roundSliceTo rounds every element of x to the nearest value of dt
// where dt is narrower than A (float16, bfloat16; float in float64).
func roundSliceTo[A float32 | float64](dt tensor.DataType, x []A) {
	if dt == tensor.Double || (dt == tensor.Float && sizeOfFloat[A]() == 4) {
		return
	}
	for i, v := range x {
		x[i] = A(convert.RoundToType(dt, float64(v)))
	}
}
