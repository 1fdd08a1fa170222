// LinearAttention, version 27. ONNX Operators.md: "Unified linear
// attention operator for autoregressive decoding (T=1) and prefill
// (T>1)": with g_t the decay and β_t the update rate,
//
//	linear:      S_t = S_{t-1} + k_t ⊗ v_t
//	gated:       S_t = exp(g_t) * S_{t-1} + k_t ⊗ v_t
//	delta:       S_t = S_{t-1} + β_t * k_t ⊗ (v_t - S_{t-1}^T k_t)
//	gated_delta: S_t = exp(g_t) * S_{t-1} + β_t * k_t ⊗ (v_t - exp(g_t) * S_{t-1}^T k_t)
//	o_t = scale * q_t^T S_t
//
// As the spec's reference (op_linear_attention.py) writes it: query,
// key and value [B, T, H*D] are unpacked to heads, the state [B, Hkv,
// d_k, d_v] starts at past_state (zeros) in float32, decay is per head
// or per key dimension, beta per head or one for all, query head h reads
// the state of head h / (Hq/Hkv), scale 0 means 1/sqrt(d_k); output in
// query's type, present_state in past_state's (query's without one).
// The state and updates are float32; each sum over d_k is of float64
// products, summed in float64 in the order of d and rounded once to
// float32; exp(g) is rounded to float32.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("LinearAttention", []int{27}, linearAttention)
}

func linearAttention(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	var q, k, v, past, decay, beta *tensor.Tensor
	var err error
	for i, p := range []**tensor.Tensor{&q, &k, &v} {
		if *p, err = requiredInput(op, in, i, []string{"query", "key", "value"}[i]); err != nil {
			return nil, err
		}
	}
	for i, p := range []**tensor.Tensor{&past, &decay, &beta} {
		if *p, err = optionalInput(op, in, 3+i); err != nil {
			return nil, err
		}
	}
	rule, err := n.Str("update_rule", "gated_delta")
	if err != nil {
		return nil, err
	}
	scaleAttr, err := n.Float("scale", 0)
	if err != nil {
		return nil, err
	}
	hq64, err := n.Int("q_num_heads", 0)
	if err != nil {
		return nil, err
	}
	hkv64, err := n.Int("kv_num_heads", 0)
	if err != nil {
		return nil, err
	}
	if rule != "linear" && rule != "gated" && rule != "delta" && rule != "gated_delta" {
		return nil, op.errorf("update_rule", "update_rule is %q", rule)
	}
	if hq64 <= 0 || hkv64 <= 0 || hq64%hkv64 != 0 || hq64 > math.MaxInt32 {
		return nil, op.errorf("heads", "q_num_heads %d must be a positive multiple of kv_num_heads %d", hq64, hkv64)
	}
	gating := rule == "gated" || rule == "gated_delta"
	deltaCorrection := rule == "delta" || rule == "gated_delta"
	if gating != (decay != nil) {
		return nil, op.errorf("inputs", "update_rule %s and decay disagree", rule)
	}
	if deltaCorrection != (beta != nil) {
		return nil, op.errorf("inputs", "update_rule %s and beta disagree", rule)
	}
	dt := q.DataType()
	isFloat := func(t tensor.DataType) bool {
		return t == tensor.Float || t == tensor.Float16 || t == tensor.BFloat16
	}
	if !isFloat(dt) {
		return nil, op.errorf("type", "query is %v", dt)
	}
	for _, t := range []*tensor.Tensor{k, v, decay, beta} {
		if t != nil && t.DataType() != dt {
			return nil, op.errorf("type", "every activation input must be of query's type %v, got %v", dt, t.DataType())
		}
	}
	stateType := dt
	if past != nil {
		stateType = past.DataType()
		if !isFloat(stateType) {
			return nil, op.errorf("type", "past_state is %v", stateType)
		}
	}
	if q.Rank() != 3 || k.Rank() != 3 || v.Rank() != 3 {
		return nil, op.errorf("rank", "query, key and value must be 3-D")
	}
	hq, hkv := int(hq64), int(hkv64)
	b, t := q.Shape()[0], q.Shape()[1]
	if k.Shape()[0] != b || v.Shape()[0] != b || k.Shape()[1] != t || v.Shape()[1] != t ||
		q.Shape()[2]%hq != 0 || v.Shape()[2]%hkv != 0 {
		return nil, op.errorf("shape", "query %v, key %v and value %v disagree", q.Shape(), k.Shape(), v.Shape())
	}
	dk, dv := q.Shape()[2]/hq, v.Shape()[2]/hkv
	if k.Shape()[2] != hkv*dk {
		return nil, op.errorf("shape", "key %v must have kv_num_heads*d_k = %d columns", k.Shape(), hkv*dk)
	}
	perKey := false
	if decay != nil {
		s := decay.Shape()
		ok := decay.Rank() == 3 && s[0] == b && s[1] == t
		switch {
		case ok && s[2] == hkv:
		case ok && s[2] == hkv*dk:
			perKey = true
		default:
			return nil, op.errorf("decay", "decay %v", s)
		}
	}
	betaHeads := 0
	if beta != nil {
		s := beta.Shape()
		if beta.Rank() != 3 || s[0] != b || s[1] != t || (s[2] != hkv && s[2] != 1) {
			return nil, op.errorf("beta", "beta %v", s)
		}
		betaHeads = s[2]
	}
	if past != nil && !tensor.SameShape(past.Shape(), []int{b, hkv, dk, dv}) {
		return nil, op.errorf("past_state", "past_state %v", past.Shape())
	}
	y, err := newTensor(opt, op, dt, []int{b, t, hq * dv})
	if err != nil {
		return nil, err
	}
	present, err := newTensor(opt, op, stateType, []int{b, hkv, dk, dv})
	if err != nil {
		return nil, err
	}
	f32 := func(x *tensor.Tensor) []float32 {
		if x == nil {
			return nil
		}
		f, _ := x.Float32s()
		return f
	}
	qv, kv, vv, gv, bv := f32(q), f32(k), f32(v), f32(decay), f32(beta)
	state := make([]float32, b*hkv*dk*dv) // zeros without past_state
	if past != nil {
		copy(state, f32(past))
	}
	scale := float64(scaleAttr)
	if scale == 0 {
		scale = 1 / math.Sqrt(float64(dk))
	}
	// The unpacked views: x4(b, h, i, d) of a [B, T, H*D] tensor.
	at := func(heads, dim, bb, h, i, d int) int { return ((bb*t+i)*heads+h)*dim + d }
	S := func(bb, h, d, m int) *float32 { return &state[((bb*hkv+h)*dk+d)*dv+m] }
	for bb := range b {
		if err := cancelled(opt, op); err != nil {
			return nil, err
		}
		for i := range t {
			for h := range hkv {
				if gating { // state *= exp(g_t)
					for d := range dk {
						g := gv[(bb*t+i)*hkv+h]
						if perKey {
							g = gv[at(hkv, dk, bb, h, i, d)]
						}
						e := float32(math.Exp(float64(g)))
						for m := range dv {
							*S(bb, h, d, m) *= e
						}
					}
				}
				vt := make([]float32, dv)
				for m := range dv {
					vt[m] = vv[at(hkv, dv, bb, h, i, m)]
				}
				if deltaCorrection { // v_t <- beta_t * (v_t - S^T k_t)
					bt := bv[(bb*t+i)*betaHeads+min(h, betaHeads-1)]
					for m := range dv {
						retrieved := 0.0
						for d := range dk {
							retrieved += float64(*S(bb, h, d, m)) * float64(kv[at(hkv, dk, bb, h, i, d)])
						}
						vt[m] = float32(bt * float32(vt[m]-float32(retrieved)))
					}
				}
				for d := range dk { // state += k_t ⊗ v_t
					for m := range dv {
						*S(bb, h, d, m) += float32(kv[at(hkv, dk, bb, h, i, d)] * vt[m])
					}
				}
			}
			for h := range hq { // o_t = scale * q_t^T S, S of head h / group
				for m := range dv {
					sum := 0.0
					for d := range dk {
						sum += float64(qv[at(hq, dk, bb, h, i, d)]) * float64(*S(bb, h/(hq/hkv), d, m))
					}
					_ = storeFloat(y, at(hq, dv, bb, h, i, m), float64(float32(scale*sum)))
				}
			}
		}
	}
	for i, s := range state {
		_ = storeFloat(present, i, float64(s))
	}
	return values(y, present), nil
}
