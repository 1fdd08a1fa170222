// Attention computes scaled dot-product attention: Y = softmax(scale * Q
// K^T, softcapped, plus the mask) V for every batch and query head, with
// grouped-query heads (q_num_heads a multiple of kv_num_heads; query head
// h reads key and value head h / (q_num_heads / kv_num_heads)), a past
// key and value cache joined before K and V (returned as present_key and
// present_value), and optionally the scores (qk_matmul_output).
//
// Versions: 23 and 24 (adds the input nonpad_kv_seqlen: the keys of
// batch b at and past nonpad_kv_seqlen[b] are padding and masked out).
// Q, K and V are all 4-D ([batch, heads, seq, head size]) or all 3-D
// ([batch, seq, heads*head size], q_num_heads and kv_num_heads giving the
// heads). attn_mask is boolean (true takes part) or of Q's type (added),
// of rank 2 to 4, broadcast to [batch, q heads, q seq, total seq] as numpy
// does but for its last axis, which may be shorter than the total
// sequence (the keys past it are masked out). is_causal masks key j out
// of query row i when j > i + offset: offset is the past's length, or,
// with nonpad_kv_seqlen and no past, nonpad_kv_seqlen[b] - q seq (the
// spec's reference, bottom-right aligned). scale defaults to 1/sqrt(head
// size); softcap > 0 maps a score s to softcap*tanh(s/softcap) before the
// mask. A row whose every key is masked out gives probabilities and
// output 0 (as the node tests expect), not NaN. qk_matmul_output_mode
// picks the scores returned: 0 scale*Q K^T, 1 after the softcap, 2 after
// the mask, 3 the probabilities. (The spec's reference returns the
// softcapped scores under mode 0 as well when softcap is set; no node
// test sets both.) softmax_precision is checked and otherwise not read:
// the softmax is computed in float32 (float64 for double), never in less.
//
// The rules, in order: [type], [rank], [heads], [shape], [past], [mask],
// [nonpad_kv_seqlen], [qk_matmul_output_mode], [softmax_precision]. The
// computation is the attention engine's (ops/internal/attention): tiles of
// Q K^T through gemm and an online softmax, in float32 for float, float16
// and bfloat16 and in float64 for double; it agrees with the reference
// engine within the bound reference.Agree states.

package ops

import (
	"context"
	"errors"
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/attention"
	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Attention", []int{23}, [2]int{3, 6}, [2]int{1, 4}, attentionNode)
	register("Attention", []int{24}, [2]int{3, 7}, [2]int{1, 4}, attentionNode)
	declareAttrs("Attention",
		AttrSpec{Name: "is_causal", Type: AttrInt}, AttrSpec{Name: "kv_num_heads", Type: AttrInt},
		AttrSpec{Name: "q_num_heads", Type: AttrInt}, AttrSpec{Name: "qk_matmul_output_mode", Type: AttrInt},
		AttrSpec{Name: "scale", Type: AttrFloat}, AttrSpec{Name: "softcap", Type: AttrFloat},
		AttrSpec{Name: "softmax_precision", Type: AttrInt})
}

// AttentionOptions are Attention's attributes; the zero value is the ONNX
// default (Scale 0 means 1/sqrt(head size)).
type AttentionOptions struct {
	IsCausal           bool
	QNumHeads          int
	KVNumHeads         int
	QKMatMulOutputMode int
	Scale              float32
	Softcap            float32
	SoftmaxPrecision   int
}

// AttentionInputs are Attention's inputs; all but Q, K and V may be nil.
type AttentionInputs struct {
	Q, K, V, AttnMask, PastKey, PastValue, NonpadKVSeqlen *tensor.Tensor
}

// AttentionOutputs are Attention's outputs.
type AttentionOutputs struct {
	Y, PresentKey, PresentValue, QKMatMulOutput *tensor.Tensor
}

// Attention computes scaled dot-product attention (ONNX Attention,
// version 24), every output.
func Attention(in AttentionInputs, o AttentionOptions, opts ...Option) (AttentionOutputs, error) {
	op := opRef{"Attention", 24}
	opt, err := callOptions(op, opts)
	if err != nil {
		return AttentionOutputs{}, err
	}
	for _, r := range []struct {
		name string
		t    *tensor.Tensor
	}{{"Q", in.Q}, {"K", in.K}, {"V", in.V}} {
		if err := checkInput(op, r.name, r.t); err != nil {
			return AttentionOutputs{}, err
		}
	}
	a := attentionAttrs{causal: o.IsCausal, qHeads: int64(o.QNumHeads), kvHeads: int64(o.KVNumHeads),
		mode: int64(o.QKMatMulOutputMode), scale: o.Scale, hasScale: o.Scale != 0, softcap: o.Softcap,
		precision: int64(o.SoftmaxPrecision), precisionPresent: o.SoftmaxPrecision != 0}
	out, err := runAttention(opt, op, in, a, 4)
	if err != nil {
		return AttentionOutputs{}, err
	}
	return AttentionOutputs{out[0], out[1], out[2], out[3]}, nil
}

type attentionAttrs struct {
	causal           bool
	qHeads, kvHeads  int64
	mode, precision  int64
	scale, softcap   float32
	hasScale         bool
	precisionPresent bool
}

func attentionNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	var ins AttentionInputs
	var err error
	if ins.Q, err = n.requiredInput(in, 0, "Q"); err != nil {
		return nil, err
	}
	if ins.K, err = n.requiredInput(in, 1, "K"); err != nil {
		return nil, err
	}
	if ins.V, err = n.requiredInput(in, 2, "V"); err != nil {
		return nil, err
	}
	for i, p := range []**tensor.Tensor{&ins.AttnMask, &ins.PastKey, &ins.PastValue, &ins.NonpadKVSeqlen} {
		if *p, err = n.tensorInput(in, 3+i); err != nil {
			return nil, err
		}
	}
	var a attentionAttrs
	causal, err := n.Int("is_causal", 0)
	if err != nil {
		return nil, err
	}
	a.causal = causal != 0
	if a.qHeads, err = n.Int("q_num_heads", 0); err != nil {
		return nil, err
	}
	if a.kvHeads, err = n.Int("kv_num_heads", 0); err != nil {
		return nil, err
	}
	if a.mode, err = n.Int("qk_matmul_output_mode", 0); err != nil {
		return nil, err
	}
	a.hasScale = n.Has("scale")
	if a.scale, err = n.Float("scale", 0); err != nil {
		return nil, err
	}
	if a.softcap, err = n.Float("softcap", 0); err != nil {
		return nil, err
	}
	a.precisionPresent = n.Has("softmax_precision")
	if a.precision, err = n.Int("softmax_precision", 0); err != nil {
		return nil, err
	}
	outs, err := runAttention(opt, n.op(), ins, a, max(n.NumOutputs, 1))
	if err != nil {
		return nil, err
	}
	return values(outs...), nil
}

// attentionPlan is a checked Attention call.
type attentionPlan struct {
	batch, qHeads, kvHeads, qSeq, kvSeq, past, headK, headV int
	threeD                                                  bool
	maskStrides                                             [4]int
	maskCols                                                int
	nonpad                                                  []int
}

// total is the number of keys: the past's and K's.
func (p attentionPlan) total() int { return p.past + p.kvSeq }

var attentionFloatTypes = typesOf(tensor.Float16, tensor.Float, tensor.Double, tensor.BFloat16)

// attentionCheck checks the operands in the order of the rules.
func attentionCheck(op opRef, in AttentionInputs, a attentionAttrs) (attentionPlan, error) {
	var p attentionPlan
	q, k, v := in.Q, in.K, in.V
	if !attentionFloatTypes.has(q.DataType()) || !attentionFloatTypes.has(v.DataType()) {
		return p, op.errorf("type", "Q is %v and V %v; Attention takes float16, float, double or bfloat16", q.DataType(), v.DataType())
	}
	if k.DataType() != q.DataType() {
		return p, op.errorf("type", "K is %v, expected Q's type %v", k.DataType(), q.DataType())
	}
	if q.Rank() != k.Rank() || q.Rank() != v.Rank() || (q.Rank() != 3 && q.Rank() != 4) {
		return p, op.errorf("rank", "Q %v, K %v and V %v must all be 3-D or all 4-D", q.Shape(), k.Shape(), v.Shape())
	}
	qs, ks, vs := q.Shape(), k.Shape(), v.Shape()
	p.batch = qs[0]
	if q.Rank() == 4 {
		p.threeD = false
		p.qHeads, p.qSeq, p.headK = qs[1], qs[2], qs[3]
		p.kvHeads, p.kvSeq = ks[1], ks[2]
		p.headV = vs[3]
		if (a.qHeads != 0 && a.qHeads != int64(p.qHeads)) || (a.kvHeads != 0 && a.kvHeads != int64(p.kvHeads)) {
			return p, op.errorf("heads", "q_num_heads %d and kv_num_heads %d disagree with Q %v and K %v", a.qHeads, a.kvHeads, qs, ks)
		}
		if ks[3] != p.headK || vs[1] != p.kvHeads {
			return p, op.errorf("shape", "K %v must have Q's head size %d and V %v K's heads %d", ks, p.headK, vs, p.kvHeads)
		}
	} else {
		p.threeD = true
		if a.qHeads <= 0 || a.kvHeads <= 0 {
			return p, op.errorf("heads", "3-D Q, K and V need q_num_heads and kv_num_heads > 0, got %d and %d", a.qHeads, a.kvHeads)
		}
		if int64(qs[2])%a.qHeads != 0 || int64(ks[2])%a.kvHeads != 0 || int64(vs[2])%a.kvHeads != 0 {
			return p, op.errorf("heads", "hidden sizes of Q %v (by q_num_heads %d), K %v and V %v (by kv_num_heads %d) must divide", qs, a.qHeads, ks, vs, a.kvHeads)
		}
		p.qHeads, p.kvHeads = int(a.qHeads), int(a.kvHeads)
		p.qSeq, p.kvSeq = qs[1], ks[1]
		p.headK, p.headV = qs[2]/p.qHeads, vs[2]/p.kvHeads
		if ks[2]/p.kvHeads != p.headK {
			return p, op.errorf("shape", "K %v has head size %d, Q %v %d", ks, ks[2]/p.kvHeads, qs, p.headK)
		}
	}
	if p.kvHeads == 0 || p.qHeads%p.kvHeads != 0 {
		return p, op.errorf("heads", "q heads %d must be a multiple of kv heads %d", p.qHeads, p.kvHeads)
	}
	vSeq := vs[1]
	if !p.threeD {
		vSeq = vs[2]
	}
	if ks[0] != p.batch || vs[0] != p.batch || vSeq != p.kvSeq {
		return p, op.errorf("shape", "Q %v, K %v and V %v must agree on the batch and K and V on the sequence", qs, ks, vs)
	}
	if (in.PastKey == nil) != (in.PastValue == nil) {
		return p, op.errorf("past", "past_key and past_value come together")
	}
	if in.PastKey != nil {
		pk, pv := in.PastKey, in.PastValue
		if pk.DataType() != k.DataType() || pv.DataType() != v.DataType() {
			return p, op.errorf("past", "past_key %v and past_value %v must have K's and V's types", pk.DataType(), pv.DataType())
		}
		if pk.Rank() != 4 || pv.Rank() != 4 {
			return p, op.errorf("past", "past_key %v and past_value %v must be 4-D", pk.Shape(), pv.Shape())
		}
		p.past = pk.Shape()[2]
		if !tensor.SameShape(pk.Shape(), []int{p.batch, p.kvHeads, p.past, p.headK}) || !tensor.SameShape(pv.Shape(), []int{p.batch, p.kvHeads, p.past, p.headV}) {
			return p, op.errorf("past", "past_key %v and past_value %v must be [%d, %d, past, %d] and [%d, %d, past, %d]",
				pk.Shape(), pv.Shape(), p.batch, p.kvHeads, p.headK, p.batch, p.kvHeads, p.headV)
		}
	}
	if m := in.AttnMask; m != nil {
		if m.DataType() != tensor.Bool && m.DataType() != q.DataType() {
			return p, op.errorf("mask", "attn_mask is %v, expected bool or Q's type %v", m.DataType(), q.DataType())
		}
		ms := m.Shape()
		if len(ms) < 2 || len(ms) > 4 {
			return p, op.errorf("mask", "attn_mask has shape %v, expected rank 2 to 4", ms)
		}
		target := []int{p.batch, p.qHeads, p.qSeq, p.total()}
		full := append(make([]int, 4-len(ms)), ms...)
		stride := 1
		for d := 3; d >= 0; d-- {
			size := 1
			if d >= 4-len(ms) {
				size = full[d]
			}
			switch {
			case d == 3 && size <= target[3]:
				p.maskCols = size
				p.maskStrides[d] = stride
			case size == target[d]:
				p.maskStrides[d] = stride
			case size == 1:
			default:
				return p, op.errorf("mask", "attn_mask %v does not broadcast to %v", ms, target)
			}
			if size == 1 && d != 3 {
				p.maskStrides[d] = 0
			}
			stride *= size
		}
	}
	if t := in.NonpadKVSeqlen; t != nil {
		if op.version < 24 {
			return p, op.errorf("nonpad_kv_seqlen", "version %d has no nonpad_kv_seqlen input", op.version)
		}
		if t.DataType() != tensor.Int64 || !tensor.SameShape(t.Shape(), []int{p.batch}) {
			return p, op.errorf("nonpad_kv_seqlen", "nonpad_kv_seqlen is %v %v, expected int64 [%d]", t.DataType(), t.Shape(), p.batch)
		}
		v, _ := tensor.Data[int64](t)
		p.nonpad = make([]int, len(v))
		for b, x := range v {
			if x < 0 || x > int64(p.total()) {
				return p, op.errorf("nonpad_kv_seqlen", "nonpad_kv_seqlen[%d] is %d, outside [0, %d]", b, x, p.total())
			}
			p.nonpad[b] = int(x)
		}
	}
	if a.mode < 0 || a.mode > 3 {
		return p, op.errorf("qk_matmul_output_mode", "qk_matmul_output_mode is %d, expected 0 to 3", a.mode)
	}
	if a.precisionPresent {
		switch tensor.DataType(a.precision) {
		case tensor.Float, tensor.Float16, tensor.Double, tensor.BFloat16:
		default:
			return p, op.errorf("softmax_precision", "softmax_precision is %d, expected float (1), float16 (10), double (11) or bfloat16 (16)", a.precision)
		}
	}
	return p, nil
}

// attentionOutputShape returns the shape of output k: Y, present_key,
// present_value or qk_matmul_output (made one at a time: a run makes only
// those it needs).
func attentionOutputShape(p attentionPlan, k int) []int {
	switch k {
	case 0:
		if p.threeD {
			return []int{p.batch, p.qSeq, p.qHeads * p.headV}
		}
		return []int{p.batch, p.qHeads, p.qSeq, p.headV}
	case 1:
		return []int{p.batch, p.kvHeads, p.total(), p.headK}
	case 2:
		return []int{p.batch, p.kvHeads, p.total(), p.headV}
	}
	return []int{p.batch, p.qHeads, p.qSeq, p.total()}
}

func runAttention(opt *Options, op opRef, in AttentionInputs, a attentionAttrs, outputs int) ([]*tensor.Tensor, error) {
	opt = opt.orDefault()
	p, err := attentionCheck(op, in, a)
	if err != nil {
		return nil, err
	}
	out := make([]*tensor.Tensor, 4)
	if out[0], err = opt.newOverwritten(op, in.Q.DataType(), attentionOutputShape(p, 0)); err != nil {
		return nil, err
	}
	// K and V with the past joined: the present outputs, built when asked
	// for or when there is a past (then as scratch).
	keys, vals := in.K, in.V
	kl := attentionLayout(p.threeD, p.kvHeads, p.kvSeq, p.headK)
	vl := attentionLayout(p.threeD, p.kvHeads, p.kvSeq, p.headV)
	if outputs > 1 || p.past > 0 {
		if keys, err = joinPast(opt, op, in.PastKey, in.K, p, p.headK, attentionOutputShape(p, 1)); err != nil {
			return nil, err
		}
		if vals, err = joinPast(opt, op, in.PastValue, in.V, p, p.headV, attentionOutputShape(p, 2)); err != nil {
			return nil, err
		}
		kl = attention.BHSD(p.kvHeads, p.total(), p.headK)
		vl = attention.BHSD(p.kvHeads, p.total(), p.headV)
		out[1], out[2] = keys, vals
	}
	if outputs > 3 {
		if out[3], err = opt.newOverwritten(op, in.Q.DataType(), attentionOutputShape(p, 3)); err != nil {
			return nil, err
		}
	}
	if in.Q.DataType() == tensor.Double {
		err = attentionAs[float64](opt, op, in, a, p, keys, vals, kl, vl, out)
	} else {
		err = attentionAs[float32](opt, op, in, a, p, keys, vals, kl, vl, out)
	}
	if err != nil {
		return nil, err
	}
	return out[:outputs], nil
}

func attentionLayout(threeD bool, heads, seq, dim int) attention.Layout {
	if threeD {
		return attention.BSHD(heads, seq, dim)
	}
	return attention.BHSD(heads, seq, dim)
}

// joinPast returns [batch, kv heads, past + seq, dim]: past's rows then
// x's (3-D or 4-D), copied by bytes.
func joinPast(opt *Options, op opRef, past, x *tensor.Tensor, p attentionPlan, dim int, shape []int) (*tensor.Tensor, error) {
	y, err := opt.newOverwritten(op, x.DataType(), shape)
	if err != nil {
		return nil, err
	}
	size := x.DataType().Size()
	row := dim * size
	yb, xb := y.Bytes(), x.Bytes()
	xl := attentionLayout(p.threeD, p.kvHeads, p.kvSeq, dim)
	c := opt.canceller()
	for b := range p.batch {
		for h := range p.kvHeads {
			if c.Stop(p.total() * dim) {
				return nil, op.stopped(c.Err)
			}
			at := ((b*p.kvHeads + h) * p.total()) * row
			if past != nil {
				n := p.past * row
				copy(yb[at:at+n], past.Bytes()[(b*p.kvHeads+h)*n:][:n])
				at += n
			}
			for s := range p.kvSeq {
				from := (b*xl.Batch + h*xl.Head + s*xl.Seq) * size
				copy(yb[at:at+row], xb[from:from+row])
				at += row
			}
		}
	}
	return y, nil
}

// attentionAs runs the engine in A (float32 or float64).
func attentionAs[A float32 | float64](opt *Options, op opRef, in AttentionInputs, a attentionAttrs, p attentionPlan,
	keys, vals *tensor.Tensor, kl, vl attention.Layout, out []*tensor.Tensor) error {
	load := func(t *tensor.Tensor) ([]A, error) {
		if !convert.NativeFloat[A](t.DataType()) {
			if err := opt.scratch(op, "an input in the computing type", t.Len(), sizeOfFloat[A]()); err != nil {
				return nil, err
			}
		}
		return convert.LoadFloatsPolled[A](opt.orDefault().env.Ctx, t)
	}
	pr := &attention.Problem[A]{
		Batch: p.batch, QHeads: p.qHeads, KVHeads: p.kvHeads, QSeq: p.qSeq, KVSeq: p.total(), HeadK: p.headK, HeadV: p.headV,
		QL: attentionLayout(p.threeD, p.qHeads, p.qSeq, p.headK), KL: kl, VL: vl,
		YL:     attentionLayout(p.threeD, p.qHeads, p.qSeq, p.headV),
		Causal: a.causal, ValidKeys: p.nonpad,
	}
	var err error
	if pr.Q, err = load(in.Q); err != nil {
		return err
	}
	if pr.K, err = load(keys); err != nil {
		return err
	}
	if pr.V, err = load(vals); err != nil {
		return err
	}
	scale := 1 / math.Sqrt(float64(p.headK))
	if a.hasScale {
		scale = float64(a.scale)
	}
	pr.Scale, pr.Softcap = A(scale), A(max(a.softcap, 0))
	if a.causal {
		pr.CausalOffset = make([]int, p.batch)
		for b := range pr.CausalOffset {
			pr.CausalOffset[b] = p.past
			if in.PastKey == nil && p.nonpad != nil {
				pr.CausalOffset[b] = p.nonpad[b] - p.qSeq
			}
		}
	}
	if m := in.AttnMask; m != nil {
		pr.MaskStrides, pr.MaskCols = p.maskStrides, p.maskCols
		if m.DataType() == tensor.Bool {
			pr.MaskBool = m.Bytes()
		} else if pr.MaskAdd, err = load(m); err != nil {
			return err
		}
	}
	var flushY, flushS func()
	if pr.Y, flushY, err = attentionOut[A](opt, op, out[0]); err != nil {
		return err
	}
	if out[3] != nil {
		if pr.Scores, flushS, err = attentionOut[A](opt, op, out[3]); err != nil {
			return err
		}
		pr.ScoreStage = attention.Stage(a.mode)
	}
	o := opt.orDefault()
	// The run's budget itself (nil: none), not the method value o.Charge,
	// an allocation a call: the engine charges positive bytes only.
	cfg := attention.Config{Ctx: o.env.Ctx, Threads: o.threads(), Charge: o.env.Charge}
	if err := attention.Run(cfg, pr); err != nil {
		return attentionErr(op, err)
	}
	flushY()
	if flushS != nil {
		flushS()
	}
	return nil
}

// attentionErr wraps an error of the engine: a cancellation, a refusal of
// the budget, or (never expected) gemm's.
func attentionErr(op opRef, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return op.stopped(err)
	}
	return &Error{Op: op.name, Version: op.version, Rule: "size", Msg: "scratch: " + err.Error(), Err: errors.Join(ErrLimit, err)}
}

// attentionOut returns the []A the engine writes t's elements to and the
// function that stores them into t when t is not of type A.
// noFlush is attentionOut's flush of an output computed in place.
var noFlush = func() {}

func attentionOut[A float32 | float64](opt *Options, op opRef, t *tensor.Tensor) ([]A, func(), error) {
	if convert.NativeFloat[A](t.DataType()) {
		return asElems[A](t.Bytes())[:t.Len()], noFlush, nil
	}
	if err := opt.scratch(op, "an output in the computing type", t.Len(), sizeOfFloat[A]()); err != nil {
		return nil, nil, err
	}
	v := make([]A, t.Len())
	return v, func() { _ = convert.StoreFloats(t, v) }, nil
}
