// Attention (23, 24). ONNX Operators.md: "Computes scaled dot product
// attention on query, key and value tensors, using an optional attention
// mask if passed." As the spec's reference (op_attention.py) computes it:
// 3-D Q, K, V ([batch, seq, heads*head]) are reshaped to [batch, seq,
// heads, head] and transposed to [batch, heads, seq, head]; scale defaults
// to 1/sqrt(head size); present_key = concat(past_key, K) along the
// sequence, present_value likewise; the attention bias is attn_mask (a
// boolean mask gives 0 where true and -inf where false) padded with -inf
// to the total sequence; is_causal adds -inf where key j > i + offset
// (offset the past's length, or, with nonpad_kv_seqlen and no past,
// nonpad_kv_seqlen[b] - q seq); nonpad_kv_seqlen (24) adds -inf at keys
// j >= nonpad_kv_seqlen[b]; K and V heads are repeated for grouped-query
// attention ([h0, h0, h1, h1, ...]); then
//
//	qk = (Q*sqrt(scale)) @ (K*sqrt(scale))^T    (here scale*(Q @ K^T))
//	qk = softcap*tanh(qk/softcap)               if softcap > 0
//	p  = softmax(qk + bias)                     a row of -inf only gives 0
//	Y  = p @ V
//
// with qk_matmul_output the product (mode 0), the softcapped product (1),
// the biased scores (2) or p (3). Every value is computed in float64 in
// the order of the formulas and rounded once to the output type; the row
// of zeros for a fully masked row is what the node tests expect.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Attention", []int{23, 24}, attentionKernel)
}

func isAttentionFloat(dt tensor.DataType) bool {
	return dt == tensor.Float16 || dt == tensor.Float || dt == tensor.Double || dt == tensor.BFloat16
}

func attentionKernel(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	q, err := requiredInput(op, in, 0, "Q")
	if err != nil {
		return nil, err
	}
	k, err := requiredInput(op, in, 1, "K")
	if err != nil {
		return nil, err
	}
	v, err := requiredInput(op, in, 2, "V")
	if err != nil {
		return nil, err
	}
	var opt4 [4]*tensor.Tensor // attn_mask, past_key, past_value, nonpad_kv_seqlen
	for i := range opt4 {
		if opt4[i], err = optionalInput(op, in, 3+i); err != nil {
			return nil, err
		}
	}
	mask, pastK, pastV, nonpad := opt4[0], opt4[1], opt4[2], opt4[3]
	causal, _ := n.Int("is_causal", 0)
	qn, _ := n.Int("q_num_heads", 0)
	kvn, _ := n.Int("kv_num_heads", 0)
	mode, _ := n.Int("qk_matmul_output_mode", 0)
	softcap := float64(attrFloat(n, "softcap", 0))

	// [type], [rank]
	if !isAttentionFloat(q.DataType()) || !isAttentionFloat(v.DataType()) {
		return nil, op.errorf("type", "Q is %v and V %v", q.DataType(), v.DataType())
	}
	if k.DataType() != q.DataType() {
		return nil, op.errorf("type", "K is %v, Q %v", k.DataType(), q.DataType())
	}
	if q.Rank() != k.Rank() || q.Rank() != v.Rank() || (q.Rank() != 3 && q.Rank() != 4) {
		return nil, op.errorf("rank", "Q %v, K %v, V %v", q.Shape(), k.Shape(), v.Shape())
	}
	// [heads], [shape]: the [batch, heads, seq, head] view of each.
	qs, ks, vs := q.Shape(), k.Shape(), v.Shape()
	batch := qs[0]
	var qHeads, kvHeads, qSeq, kvSeq, headK, headV int
	var qAt, kAt, vAt func(b, h, s, d int) int
	if q.Rank() == 4 {
		qHeads, qSeq, headK, kvHeads, kvSeq, headV = qs[1], qs[2], qs[3], ks[1], ks[2], vs[3]
		if (qn != 0 && qn != int64(qHeads)) || (kvn != 0 && kvn != int64(kvHeads)) {
			return nil, op.errorf("heads", "q_num_heads %d, kv_num_heads %d against Q %v, K %v", qn, kvn, qs, ks)
		}
		if ks[3] != headK || vs[1] != kvHeads {
			return nil, op.errorf("shape", "K %v, V %v", ks, vs)
		}
	} else {
		if qn <= 0 || kvn <= 0 {
			return nil, op.errorf("heads", "3-D inputs need q_num_heads and kv_num_heads")
		}
		if int64(qs[2])%qn != 0 || int64(ks[2])%kvn != 0 || int64(vs[2])%kvn != 0 {
			return nil, op.errorf("heads", "hidden sizes do not divide by the heads")
		}
		qHeads, kvHeads, qSeq, kvSeq = int(qn), int(kvn), qs[1], ks[1]
		headK, headV = qs[2]/qHeads, vs[2]/kvHeads
		if ks[2]/kvHeads != headK {
			return nil, op.errorf("shape", "K %v, Q %v", ks, qs)
		}
	}
	bhsd := func(t *tensor.Tensor, heads, dim int) func(b, h, s, d int) int {
		sh := t.Shape()
		if t.Rank() == 4 {
			return func(b, h, s, d int) int { return ((b*heads+h)*sh[2]+s)*dim + d }
		}
		return func(b, h, s, d int) int { return ((b*sh[1]+s)*heads+h)*dim + d } // reshape, transpose (0, 2, 1, 3)
	}
	qAt, kAt, vAt = bhsd(q, qHeads, headK), bhsd(k, kvHeads, headK), bhsd(v, kvHeads, headV)
	if kvHeads == 0 || qHeads%kvHeads != 0 {
		return nil, op.errorf("heads", "q heads %d, kv heads %d", qHeads, kvHeads)
	}
	vSeq := vs[1]
	if q.Rank() == 4 {
		vSeq = vs[2]
	}
	if ks[0] != batch || vs[0] != batch || vSeq != kvSeq {
		return nil, op.errorf("shape", "Q %v, K %v, V %v", qs, ks, vs)
	}
	// [past]
	if (pastK == nil) != (pastV == nil) {
		return nil, op.errorf("past", "past_key and past_value come together")
	}
	past := 0
	if pastK != nil {
		if pastK.DataType() != k.DataType() || pastV.DataType() != v.DataType() || pastK.Rank() != 4 || pastV.Rank() != 4 {
			return nil, op.errorf("past", "past_key %v, past_value %v", pastK.Describe(), pastV.Describe())
		}
		past = pastK.Shape()[2]
		if !tensor.SameShape(pastK.Shape(), []int{batch, kvHeads, past, headK}) || !tensor.SameShape(pastV.Shape(), []int{batch, kvHeads, past, headV}) {
			return nil, op.errorf("past", "past_key %v, past_value %v", pastK.Shape(), pastV.Shape())
		}
	}
	total := past + kvSeq
	// [mask]: right-aligned numpy broadcasting to [batch, q heads, q seq,
	// total], but for the last axis, padded with -inf (False).
	var maskAt func(b, h, i, j int) (float64, bool)
	if mask != nil {
		if mask.DataType() != tensor.Bool && mask.DataType() != q.DataType() {
			return nil, op.errorf("mask", "attn_mask is %v", mask.DataType())
		}
		ms := mask.Shape()
		if len(ms) < 2 || len(ms) > 4 || ms[len(ms)-1] > total {
			return nil, op.errorf("mask", "attn_mask %v", ms)
		}
		full := []int{1, 1, 1, 1}
		copy(full[4-len(ms):], ms)
		target := []int{batch, qHeads, qSeq, total}
		for d := range 3 {
			if full[d] != 1 && full[d] != target[d] {
				return nil, op.errorf("mask", "attn_mask %v does not broadcast to %v", ms, target)
			}
		}
		mv, _ := mask.Float64s()
		isBool := mask.DataType() == tensor.Bool
		maskAt = func(b, h, i, j int) (float64, bool) {
			if j >= full[3] {
				return math.Inf(-1), true // np.pad with -inf / False
			}
			idx := [4]int{b, h, i, j}
			at := 0
			for d := range 4 {
				if full[d] == 1 {
					idx[d] = 0
				}
				at = at*full[d] + idx[d]
			}
			if isBool {
				if mv[at] == 0 {
					return math.Inf(-1), true
				}
				return 0, true
			}
			return mv[at], true
		}
	}
	// [nonpad_kv_seqlen]
	var valid []int64
	if nonpad != nil {
		if n.Version < 24 {
			return nil, op.errorf("nonpad_kv_seqlen", "version %d has no nonpad_kv_seqlen", n.Version)
		}
		if nonpad.DataType() != tensor.Int64 || !tensor.SameShape(nonpad.Shape(), []int{batch}) {
			return nil, op.errorf("nonpad_kv_seqlen", "nonpad_kv_seqlen %v", nonpad.Describe())
		}
		valid, _ = nonpad.Int64s()
		for _, x := range valid {
			if x < 0 || x > int64(total) {
				return nil, op.errorf("nonpad_kv_seqlen", "nonpad_kv_seqlen %d outside [0, %d]", x, total)
			}
		}
	}
	if mode < 0 || mode > 3 {
		return nil, op.errorf("qk_matmul_output_mode", "qk_matmul_output_mode %d", mode)
	}
	if n.Has("softmax_precision") {
		sp, _ := n.Int("softmax_precision", 0)
		switch tensor.DataType(sp) {
		case tensor.Float, tensor.Float16, tensor.Double, tensor.BFloat16:
		default:
			return nil, op.errorf("softmax_precision", "softmax_precision %d", sp)
		}
	}
	scale := 1 / math.Sqrt(float64(headK))
	if n.Has("scale") {
		scale = float64(attrFloat(n, "scale", 0))
	}

	// present_key, present_value.
	outputs := max(n.NumOutputs, 1)
	if err := chargeScratch(opt, op, "a row of scores", total, 8); err != nil {
		return nil, err
	}
	// presentKey and presentValue are element (b, h, s, d) of
	// present_key and present_value: the past's, then K's or V's; every
	// input is read where it is used, never copied.
	presentKey := func(b, h, s, d int) float64 {
		if s < past {
			return elementAs[float64](pastK, ((b*kvHeads+h)*past+s)*headK+d)
		}
		return elementAs[float64](k, kAt(b, h, s-past, d))
	}
	presentValue := func(b, h, s, d int) float64 {
		if s < past {
			return elementAs[float64](pastV, ((b*kvHeads+h)*past+s)*headV+d)
		}
		return elementAs[float64](v, vAt(b, h, s-past, d))
	}

	yShape := []int{batch, qHeads, qSeq, headV}
	if q.Rank() == 3 {
		yShape = []int{batch, qSeq, qHeads * headV}
	}
	y, err := newTensor(opt, op, q.DataType(), yShape)
	if err != nil {
		return nil, err
	}
	var scores *tensor.Tensor
	if outputs > 3 {
		if scores, err = newTensor(opt, op, q.DataType(), []int{batch, qHeads, qSeq, total}); err != nil {
			return nil, err
		}
	}
	group := qHeads / kvHeads
	qk := make([]float64, total)
	stop := newPoll(opt, op)
	for b := range batch {
		for h := range qHeads {
			kh := h / group // np.repeat(K, group, axis=1)
			for i := range qSeq {
				if stop.stop(total * (headK + headV)) {
					return nil, stop.err
				}
				for j := range total {
					s := 0.0
					for d := range headK {
						s += elementAs[float64](q, qAt(b, h, i, d)) * presentKey(b, kh, j, d)
					}
					s *= scale
					if mode == 0 && scores != nil {
						_ = storeFloat(scores, ((b*qHeads+h)*qSeq+i)*total+j, s)
					}
					if softcap > 0 {
						s = softcap * math.Tanh(s/softcap)
					}
					if mode == 1 && scores != nil {
						_ = storeFloat(scores, ((b*qHeads+h)*qSeq+i)*total+j, s)
					}
					if maskAt != nil {
						m, _ := maskAt(b, h, i, j)
						s += m
					}
					if causal != 0 {
						offset := past
						if pastK == nil && valid != nil {
							offset = int(valid[b]) - qSeq
						}
						if j > i+offset {
							s += math.Inf(-1)
						}
					}
					if valid != nil && int64(j) >= valid[b] {
						s += math.Inf(-1)
					}
					if mode == 2 && scores != nil {
						_ = storeFloat(scores, ((b*qHeads+h)*qSeq+i)*total+j, s)
					}
					qk[j] = s
				}
				// softmax: exp(x - max) / sum; a row of -inf only gives 0.
				m := math.Inf(-1)
				for _, s := range qk {
					m = max(m, s)
				}
				sum := 0.0
				for j, s := range qk {
					if math.IsInf(m, -1) {
						qk[j] = 0
						continue
					}
					qk[j] = math.Exp(s - m)
					sum += qk[j]
				}
				for j := range qk {
					if sum != 0 {
						qk[j] /= sum
					}
					if mode == 3 && scores != nil {
						_ = storeFloat(scores, ((b*qHeads+h)*qSeq+i)*total+j, qk[j])
					}
				}
				for d := range headV {
					o := 0.0
					for j := range total {
						o += qk[j] * presentValue(b, kh, j, d)
					}
					at := ((b*qHeads+h)*qSeq+i)*headV + d
					if q.Rank() == 3 {
						at = ((b*qSeq+i)*qHeads+h)*headV + d // transpose back, reshape
					}
					_ = storeFloat(y, at, o)
				}
			}
		}
	}
	out := []*tensor.Tensor{y, nil, nil, scores}
	if outputs > 1 {
		if out[1], err = newTensor(opt, op, k.DataType(), []int{batch, kvHeads, total, headK}); err != nil {
			return nil, err
		}
		if out[2], err = newTensor(opt, op, v.DataType(), []int{batch, kvHeads, total, headV}); err != nil {
			return nil, err
		}
		forEachIndex(out[1].Shape(), func(i int, at []int) { _ = storeFloat(out[1], i, presentKey(at[0], at[1], at[2], at[3])) })
		forEachIndex(out[2].Shape(), func(i int, at []int) { _ = storeFloat(out[2], i, presentValue(at[0], at[1], at[2], at[3])) })
	}
	return values(out[:outputs]...), nil
}
