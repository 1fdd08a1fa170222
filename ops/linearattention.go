// LinearAttention is attention with a recurrent state in place of the
// softmax over keys (linear attention, GLA/RetNet, DeltaNet, Gated
// DeltaNet): for every batch and key/value head a state S [d_k, d_v],
// past_state's (zeros when absent), is carried over the tokens; per
// token, update_rule "linear" adds k ⊗ v to it, "gated" first multiplies
// it by exp(decay), "delta" adds beta * k ⊗ (v - S^T k), "gated_delta"
// both; the output of each query head is scale * q^T S (after the
// update), and present_state is the last S. Query heads share key/value
// heads in groups (q_num_heads a multiple of kv_num_heads; query head h
// reads head h / (q_num_heads / kv_num_heads)).
//
// Versions: 27. Types: query, key, value, decay and beta of one type T,
// past_state of type S, each of float, float16 and bfloat16; the output
// is of T, present_state of S (of T without past_state, as the spec's
// reference does). query is [B, T, Hq*d_k], key [B, T, Hkv*d_k], value
// [B, T, Hkv*d_v]; decay is [B, T, Hkv] (one per head) or [B, T,
// Hkv*d_k] (one per key dimension); beta [B, T, Hkv] or [B, T, 1];
// past_state [B, Hkv, d_k, d_v]. scale 0 means 1/sqrt(d_k); chunk_size
// is a tuning hint of the spec that changes no result and is not read.
//
// The rules, in order: [update_rule] one of the four; [heads]
// q_num_heads and kv_num_heads positive, the first a multiple of the
// second; [inputs] decay given exactly for the gated rules, beta exactly
// for the delta rules; [type]; [rank] query, key and value 3-D; [shape]
// their batch and length agree, their last axes divide into the heads,
// with key's d_k equal to query's; [decay]; [beta]; [past_state].
//
// The recurrence is the attention engine's (ops/internal/attention,
// RunLinear): float32 state and updates, float64 sums rounded once; the
// reference engine computes the same expressions in the same order, so
// the two agree bit for bit.

package ops

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/attention"
	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("LinearAttention", []int{27}, [2]int{3, 6}, [2]int{1, 2}, linearAttentionNode)
	declareAttrs("LinearAttention",
		AttrSpec{Name: "update_rule", Type: AttrString}, AttrSpec{Name: "scale", Type: AttrFloat},
		AttrSpec{Name: "q_num_heads", Type: AttrInt}, AttrSpec{Name: "kv_num_heads", Type: AttrInt},
		AttrSpec{Name: "chunk_size", Type: AttrInt})
}

// LinearAttentionOptions are LinearAttention's attributes; the zero value
// of UpdateRule and Scale is the ONNX default (gated_delta, 1/sqrt(d_k)).
// QNumHeads and KVNumHeads are required.
type LinearAttentionOptions struct {
	UpdateRule            string
	Scale                 float32
	QNumHeads, KVNumHeads int
	ChunkSize             int // a tuning hint; not read
}

// LinearAttentionInputs are LinearAttention's inputs; PastState, Decay
// and Beta may be nil.
type LinearAttentionInputs struct {
	Query, Key, Value, PastState, Decay, Beta *tensor.Tensor
}

// LinearAttention runs the linear-attention recurrence (ONNX
// LinearAttention, version 27) and returns the output and the present
// state.
func LinearAttention(in LinearAttentionInputs, o LinearAttentionOptions, opts ...Option) (y, present *tensor.Tensor, err error) {
	op := opRef{"LinearAttention", 27}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, nil, err
	}
	for _, r := range []struct {
		name string
		t    *tensor.Tensor
	}{{"query", in.Query}, {"key", in.Key}, {"value", in.Value}} {
		if err := checkInput(op, r.name, r.t); err != nil {
			return nil, nil, err
		}
	}
	rule := o.UpdateRule
	if rule == "" {
		rule = "gated_delta"
	}
	return linearAttention(opt, op, in, rule, o.Scale, int64(o.QNumHeads), int64(o.KVNumHeads))
}

func linearAttentionNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	var ins LinearAttentionInputs
	var err error
	if ins.Query, err = n.requiredInput(in, 0, "query"); err != nil {
		return nil, err
	}
	if ins.Key, err = n.requiredInput(in, 1, "key"); err != nil {
		return nil, err
	}
	if ins.Value, err = n.requiredInput(in, 2, "value"); err != nil {
		return nil, err
	}
	for i, p := range []**tensor.Tensor{&ins.PastState, &ins.Decay, &ins.Beta} {
		if *p, err = n.tensorInput(in, 3+i); err != nil {
			return nil, err
		}
	}
	rule, err := n.Str("update_rule", "gated_delta")
	if err != nil {
		return nil, err
	}
	scale, err := n.Float("scale", 0)
	if err != nil {
		return nil, err
	}
	qh, err := n.Int("q_num_heads", 0)
	if err != nil {
		return nil, err
	}
	kvh, err := n.Int("kv_num_heads", 0)
	if err != nil {
		return nil, err
	}
	if _, err := n.Int("chunk_size", 64); err != nil {
		return nil, err
	}
	y, present, err := linearAttention(opt, n.op(), ins, rule, scale, qh, kvh)
	if err != nil {
		return nil, err
	}
	return values(y, present), nil
}

// linearPlan is a checked LinearAttention call.
type linearPlan struct {
	batch, seq, qHeads, kvHeads, headK, headV int
	decayPerKey                               bool
	betaHeads                                 int
	stateType                                 tensor.DataType
}

var linearAttentionTypes = typesOf(tensor.Float, tensor.Float16, tensor.BFloat16)

// linearAttentionCheck checks the operands in the order of the rules.
func linearAttentionCheck(op opRef, in LinearAttentionInputs, rule string, qh, kvh int64) (linearPlan, error) {
	var p linearPlan
	var gated, delta bool
	switch rule {
	case "linear":
	case "gated":
		gated = true
	case "delta":
		delta = true
	case "gated_delta":
		gated, delta = true, true
	default:
		return p, op.errorf("update_rule", "update_rule is %q, expected linear, gated, delta or gated_delta", rule)
	}
	if qh <= 0 || kvh <= 0 || qh%kvh != 0 || qh > math.MaxInt32 {
		return p, op.errorf("heads", "q_num_heads %d must be a positive multiple of kv_num_heads %d", qh, kvh)
	}
	if gated != (in.Decay != nil) {
		return p, op.errorf("inputs", "update_rule %s %s decay", rule, map[bool]string{true: "needs", false: "takes no"}[gated])
	}
	if delta != (in.Beta != nil) {
		return p, op.errorf("inputs", "update_rule %s %s beta", rule, map[bool]string{true: "needs", false: "takes no"}[delta])
	}
	q, k, v := in.Query, in.Key, in.Value
	dt := q.DataType()
	if !linearAttentionTypes.has(dt) {
		return p, op.errorf("type", "query is %v; LinearAttention takes float, float16 or bfloat16", dt)
	}
	for _, r := range []struct {
		name string
		t    *tensor.Tensor
	}{{"key", k}, {"value", v}, {"decay", in.Decay}, {"beta", in.Beta}} {
		if r.t != nil && r.t.DataType() != dt {
			return p, op.errorf("type", "%s is %v, expected query's type %v", r.name, r.t.DataType(), dt)
		}
	}
	p.stateType = dt
	if in.PastState != nil {
		p.stateType = in.PastState.DataType()
		if !linearAttentionTypes.has(p.stateType) {
			return p, op.errorf("type", "past_state is %v; it must be float, float16 or bfloat16", p.stateType)
		}
	}
	if q.Rank() != 3 || k.Rank() != 3 || v.Rank() != 3 {
		return p, op.errorf("rank", "query %v, key %v and value %v must be 3-D", q.Shape(), k.Shape(), v.Shape())
	}
	qs, ks, vs := q.Shape(), k.Shape(), v.Shape()
	p.batch, p.seq, p.qHeads, p.kvHeads = qs[0], qs[1], int(qh), int(kvh)
	if ks[0] != p.batch || vs[0] != p.batch || ks[1] != p.seq || vs[1] != p.seq {
		return p, op.errorf("shape", "query %v, key %v and value %v must agree in batch and length", qs, ks, vs)
	}
	if qs[2]%p.qHeads != 0 || vs[2]%p.kvHeads != 0 {
		return p, op.errorf("shape", "query's last axis %d must divide into %d heads and value's %d into %d", qs[2], p.qHeads, vs[2], p.kvHeads)
	}
	p.headK, p.headV = qs[2]/p.qHeads, vs[2]/p.kvHeads
	if ks[2] != p.kvHeads*p.headK {
		return p, op.errorf("shape", "key %v must be [%d, %d, %d] (kv_num_heads × query's head size)", ks, p.batch, p.seq, p.kvHeads*p.headK)
	}
	if d := in.Decay; d != nil {
		ds := d.Shape()
		switch {
		case d.Rank() == 3 && ds[0] == p.batch && ds[1] == p.seq && ds[2] == p.kvHeads:
		case d.Rank() == 3 && ds[0] == p.batch && ds[1] == p.seq && ds[2] == p.kvHeads*p.headK:
			p.decayPerKey = true
		default:
			return p, op.errorf("decay", "decay %v must be [%d, %d, %d] or [%d, %d, %d]", ds, p.batch, p.seq, p.kvHeads, p.batch, p.seq, p.kvHeads*p.headK)
		}
	}
	if b := in.Beta; b != nil {
		bs := b.Shape()
		if b.Rank() != 3 || bs[0] != p.batch || bs[1] != p.seq || (bs[2] != p.kvHeads && bs[2] != 1) {
			return p, op.errorf("beta", "beta %v must be [%d, %d, %d] or [%d, %d, 1]", bs, p.batch, p.seq, p.kvHeads, p.batch, p.seq)
		}
		p.betaHeads = bs[2]
	}
	if s := in.PastState; s != nil && !tensor.SameShape(s.Shape(), []int{p.batch, p.kvHeads, p.headK, p.headV}) {
		return p, op.errorf("past_state", "past_state %v must be [%d, %d, %d, %d]", s.Shape(), p.batch, p.kvHeads, p.headK, p.headV)
	}
	return p, nil
}

// linearAttentionOutputShapes returns the shapes of output and
// present_state.
func linearAttentionOutputShapes(p linearPlan) (y, present []int) {
	return []int{p.batch, p.seq, p.qHeads * p.headV}, []int{p.batch, p.kvHeads, p.headK, p.headV}
}

func linearAttention(opt *Options, op opRef, in LinearAttentionInputs, rule string, scale float32, qh, kvh int64) (*tensor.Tensor, *tensor.Tensor, error) {
	opt = opt.orDefault()
	p, err := linearAttentionCheck(op, in, rule, qh, kvh)
	if err != nil {
		return nil, nil, err
	}
	yShape, sShape := linearAttentionOutputShapes(p)
	y, err := opt.newOverwritten(op, in.Query.DataType(), yShape)
	if err != nil {
		return nil, nil, err
	}
	present, err := opt.newTensor(op, p.stateType, sShape)
	if err != nil {
		return nil, nil, err
	}
	load := func(t *tensor.Tensor) ([]float32, error) {
		if t == nil {
			return nil, nil
		}
		if t.DataType() != tensor.Float {
			if err := opt.scratch(op, "an input in float32", t.Len(), 4); err != nil {
				return nil, err
			}
		}
		return convert.LoadFloatsPolled[float32](opt.env.Ctx, t)
	}
	pr := &attention.Linear{Batch: p.batch, Seq: p.seq, QHeads: p.qHeads, KVHeads: p.kvHeads, HeadK: p.headK, HeadV: p.headV,
		DecayPerKey: p.decayPerKey, BetaHeads: p.betaHeads}
	for _, r := range []struct {
		dst *[]float32
		t   *tensor.Tensor
	}{{&pr.Q, in.Query}, {&pr.K, in.Key}, {&pr.V, in.Value}, {&pr.Decay, in.Decay}, {&pr.Beta, in.Beta}} {
		if *r.dst, err = load(r.t); err != nil {
			return nil, nil, err
		}
	}
	// The state is updated in place: present's storage when it is
	// float32, else a float32 copy stored into present at the end.
	var flushState func()
	if pr.State, flushState, err = attentionOut[float32](opt, op, present); err != nil {
		return nil, nil, err
	}
	if in.PastState != nil {
		past, err := load(in.PastState)
		if err != nil {
			return nil, nil, err
		}
		copy(pr.State, past)
	} else {
		clear(pr.State)
	}
	var flushY func()
	if pr.Y, flushY, err = attentionOut[float32](opt, op, y); err != nil {
		return nil, nil, err
	}
	pr.Scale = float64(scale)
	if scale == 0 {
		pr.Scale = 1 / math.Sqrt(float64(p.headK))
	}
	o := opt.orDefault()
	cfg := attention.Config{Ctx: o.env.Ctx, Threads: o.threads(), Charge: o.Charge}
	if err := attention.RunLinear(cfg, pr); err != nil {
		return nil, nil, attentionErr(op, err)
	}
	flushY()
	flushState()
	return y, present, nil
}
