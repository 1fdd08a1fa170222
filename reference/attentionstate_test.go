package reference_test

import (
	"math"
	"math/rand/v2"

	"github.com/x448/float16"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// The stateful members of the attention family (opset 27): random nodes
// for TestAttentionFamilyEnginesAgree.
func init() {
	attentionGenerators["CausalConvWithState"] = randCausalConvWithState
	attentionGenerators["LinearAttention"] = randLinearAttention
	attentionGenerators["FlexAttention"] = randFlexAttention
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

// randFlexAttention draws FlexAttention with grouped heads, a scale or
// not, a softmax precision or not, and modifiers written in Go: a score
// shift per key with a causal mask of -Inf, and a halving of the
// probabilities (the kinds of modifier the agreement bound covers).
func randFlexAttention(r *rand.Rand) (*ops.Node, []tensor.Value) {
	types := []tensor.DataType{tensor.Float, tensor.Float16, tensor.Double, tensor.BFloat16}
	dt := types[r.IntN(4)]
	kvh := 1 + r.IntN(2)
	hq := kvh * (1 + r.IntN(2))
	b, l, s, e, ev := 1+r.IntN(2), 1+r.IntN(5), 1+r.IntN(6), 1+r.IntN(8), 1+r.IntN(5)
	attrs := map[string]ops.Attribute{}
	if r.IntN(2) == 0 {
		attrs["scale"] = attrFloat32(float32(0.1 + r.Float64()))
	}
	precision := tensor.Float
	if dt == tensor.Double {
		precision = tensor.Double
	}
	if r.IntN(3) == 0 {
		precision = types[r.IntN(4)]
		attrs["softmax_precision"] = attrInt(int(precision))
	}
	if r.IntN(30) == 0 {
		attrs["softmax_precision"] = attrInt(int(tensor.Int32)) // refused
	}
	if r.IntN(2) == 0 {
		shift := make([]float64, s)
		for j := range shift {
			shift[j] = r.Float64() - 0.5
		}
		causal := r.IntN(2) == 0 && s >= l
		attrs["score_mod"] = ops.Attribute{Type: ops.AttrGraph, Graph: goModifier(func(idx []int, x float64) float64 {
			if causal && idx[3] > idx[2] {
				return math.Inf(-1)
			}
			return x + shift[idx[3]]
		})}
	}
	if r.IntN(3) == 0 {
		attrs["prob_mod"] = ops.Attribute{Type: ops.AttrGraph, Graph: goModifier(func(_ []int, x float64) float64 { return x / 2 })}
	}
	in := []tensor.Value{randTensor(r, dt, []int{b, hq, l, e}, -1, 1, false),
		randTensor(r, dt, []int{b, kvh, s, e}, -1, 1, false),
		randTensor(r, dt, []int{b, kvh, s, ev}, -2, 2, false)}
	if r.IntN(30) == 0 {
		in[2] = randTensor(r, dt, []int{b, kvh, s + 1, ev}, -2, 2, false) // refused
	}
	return &ops.Node{OpType: "FlexAttention", Domain: "ai.onnx.preview", Version: 1, Attrs: attrs, NumOutputs: 1}, in
}

// goModifier is a one-input, one-output subgraph that maps every element
// of a 4-D tensor, given its index, with f, into a new tensor of its type.
func goModifier(f func(idx []int, x float64) float64) *ops.Subgraph {
	return &ops.Subgraph{Inputs: 1, Outputs: 1, Run: func(_ *ops.Options, in []tensor.Value) ([]tensor.Value, error) {
		x := in[0].(*tensor.Tensor)
		y := tensor.MustNew(x.DataType(), x.Shape()...)
		v, err := x.Float64s()
		if err != nil {
			return nil, err
		}
		shape := x.Shape()
		idx := make([]int, len(shape))
		out := make([]float64, len(v))
		for i := range v {
			rest := i
			for a := len(shape) - 1; a >= 0; a-- {
				idx[a] = rest % shape[a]
				rest /= shape[a]
			}
			out[i] = f(idx, v[i])
		}
		setFloats(y, out)
		return []tensor.Value{y}, nil
	}}
}

// setFloats stores v into the float tensor y, rounding to its type.
func setFloats(y *tensor.Tensor, v []float64) {
	switch y.DataType() {
	case tensor.Float:
		d, _ := tensor.Data[float32](y)
		for i := range d {
			d[i] = float32(v[i])
		}
	case tensor.Double:
		d, _ := tensor.Data[float64](y)
		copy(d, v)
	case tensor.Float16:
		d, _ := tensor.Data[float16.Float16](y)
		for i := range d {
			d[i] = float16.Fromfloat32(float32(v[i]))
		}
	case tensor.BFloat16:
		d, _ := tensor.Data[tensor.BF16](y)
		for i := range d {
			d[i] = tensor.BF16FromFloat32(float32(v[i]))
		}
	}
}
