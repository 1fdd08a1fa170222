package reference_test

import (
	"math/rand/v2"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// The stateful members of the attention family (opset 27): random nodes
// for TestAttentionFamilyEnginesAgree.
func init() {
	attentionGenerators["CausalConvWithState"] = randCausalConvWithState
	attentionGenerators["LinearAttention"] = randLinearAttention
}

// randCausalConvWithState draws a convolution with or without bias, past
// state and activation; now and then a refused one.
func randCausalConvWithState(r *rand.Rand) (*ops.Node, []tensor.Value) {
	dt := []tensor.DataType{tensor.Float, tensor.Float16, tensor.BFloat16}[r.IntN(3)]
	batch, channels, length, k := 1+r.IntN(2), 1+r.IntN(4), 1+r.IntN(6), 1+r.IntN(4)
	act := []string{"none", "silu", "swish"}[r.IntN(3)]
	if r.IntN(30) == 0 {
		act = "relu" // refused
	}
	attrs := map[string]ops.Attribute{"activation": attrStr(act)}
	in := []tensor.Value{randTensor(r, dt, []int{batch, channels, length}, -3, 3, false),
		randTensor(r, dt, []int{channels, 1, k}, -1, 1, false), nil, nil}
	if r.IntN(2) == 0 {
		in[2] = randTensor(r, dt, []int{channels}, -1, 1, false)
	}
	if r.IntN(2) == 0 {
		km1 := k - 1
		if r.IntN(30) == 0 {
			km1 = k // refused
		}
		in[3] = randTensor(r, dt, []int{batch, channels, km1}, -3, 3, false)
	}
	return &ops.Node{OpType: "CausalConvWithState", Version: 27, Attrs: attrs, NumOutputs: 2}, in
}

// randLinearAttention draws each update rule with grouped heads, decay
// per head or per key dimension, beta per head or shared, a past state
// of its own type or none; now and then a refused one.
func randLinearAttention(r *rand.Rand) (*ops.Node, []tensor.Value) {
	types := []tensor.DataType{tensor.Float, tensor.Float16, tensor.BFloat16}
	dt := types[r.IntN(3)]
	rule := []string{"linear", "gated", "delta", "gated_delta"}[r.IntN(4)]
	kvh := 1 + r.IntN(2)
	hq := kvh * (1 + r.IntN(3))
	b, t, dk, dv := 1+r.IntN(2), 1+r.IntN(5), 1+r.IntN(4), 1+r.IntN(4)
	attrs := map[string]ops.Attribute{"update_rule": attrStr(rule), "q_num_heads": attrInt(hq), "kv_num_heads": attrInt(kvh)}
	if r.IntN(2) == 0 {
		attrs["scale"] = attrFloat32(float32(r.Float64()))
	}
	if r.IntN(30) == 0 {
		attrs["q_num_heads"] = attrInt(hq + 1) // refused unless it divides
	}
	in := []tensor.Value{randTensor(r, dt, []int{b, t, hq * dk}, -1, 1, false),
		randTensor(r, dt, []int{b, t, kvh * dk}, -1, 1, false),
		randTensor(r, dt, []int{b, t, kvh * dv}, -2, 2, false), nil, nil, nil}
	if r.IntN(2) == 0 {
		in[3] = randTensor(r, types[r.IntN(3)], []int{b, kvh, dk, dv}, -1, 1, false)
	}
	if rule == "gated" || rule == "gated_delta" || r.IntN(30) == 0 {
		last := kvh
		if r.IntN(2) == 0 {
			last = kvh * dk
		}
		in[4] = randTensor(r, dt, []int{b, t, last}, -1, 0, false)
	}
	if rule == "delta" || rule == "gated_delta" || r.IntN(30) == 0 {
		last := kvh
		if r.IntN(2) == 0 {
			last = 1
		}
		in[5] = randTensor(r, dt, []int{b, t, last}, 0, 1, false)
	}
	return &ops.Node{OpType: "LinearAttention", Version: 27, Attrs: attrs, NumOutputs: 2}, in
}
