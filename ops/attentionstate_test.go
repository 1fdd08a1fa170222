package ops

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/internal/runenv"
	"github.com/onnxshape/onnxshape/tensor"
)

// The causal convolution by hand: kernel [1, 2, 3] over the input 1..4
// after a past of [10, 20] (or zeros); present_state is the last two
// joined positions, reaching into the past when the input is shorter.
func TestCausalConvWithState(t *testing.T) {
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4}, 1, 1, 4)
	w := tensor.MustFromSlice([]float32{1, 2, 3}, 1, 1, 3)
	past := tensor.MustFromSlice([]float32{10, 20}, 1, 1, 2)
	for _, tc := range []struct {
		x, past, bias *tensor.Tensor
		want, present []float32
	}{
		{x, past, nil, []float32{10 + 40 + 3, 20 + 2 + 6, 1 + 4 + 9, 2 + 6 + 12}, []float32{3, 4}},
		{x, nil, nil, []float32{3, 2 + 6, 1 + 4 + 9, 2 + 6 + 12}, []float32{3, 4}},
		{x, nil, tensor.MustFromSlice([]float32{-1}, 1), []float32{2, 7, 13, 19}, []float32{3, 4}},
		{tensor.MustFromSlice([]float32{5}, 1, 1, 1), past, nil, []float32{10 + 40 + 15}, []float32{20, 5}},
	} {
		y, present, err := CausalConvWithState(tc.x, w, tc.bias, tc.past, CausalConvWithStateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := tensor.Data[float32](y)
		gotP, _ := tensor.Data[float32](present)
		if fmt.Sprint(got, gotP) != fmt.Sprint(tc.want, tc.present) {
			t.Errorf("y %v present %v, want %v %v", got, gotP, tc.want, tc.present)
		}
	}
	y, _, err := CausalConvWithState(x, w, nil, past, CausalConvWithStateOptions{Activation: "silu"})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := tensor.Data[float32](y)
	if want := float32(53 / (1 + math.Exp(-53))); got[0] != want {
		t.Errorf("silu: %v, want %v", got[0], want)
	}
}

// Linear attention of one head of size 1 is a running sum: S_t = S_{t-1}
// + k_t v_t, o_t = scale q_t S_t; the delta rule adds beta k_t (v_t -
// S_{t-1} k_t); grouped query heads read their shared state.
func TestLinearAttention(t *testing.T) {
	f := func(v ...float32) *tensor.Tensor { return tensor.MustFromSlice(v, 1, len(v), 1) }
	q, k, v := f(1, 1, 2), f(1, 2, 1), f(3, 1, 2)
	for _, tc := range []struct {
		rule        string
		decay, beta *tensor.Tensor
		want        []float32
		state       float32
	}{
		{"linear", nil, nil, []float32{3, 5, 14}, 7},
		// gated with decay log(1/2): S halves before each write.
		{"gated", f(float32(math.Log(0.5)), float32(math.Log(0.5)), float32(math.Log(0.5))), nil, []float32{3, 3.5, 2*1.75 + 4}, 3.75},
		// delta with beta 1: S += k (v - S k): 3, 3 + 2(1 - 6) = -7, -7 + (2 + 7) = 2.
		{"delta", nil, f(1, 1, 1), []float32{3, -7, 4}, 2},
	} {
		y, s, err := LinearAttention(LinearAttentionInputs{Query: q, Key: k, Value: v, Decay: tc.decay, Beta: tc.beta},
			LinearAttentionOptions{UpdateRule: tc.rule, Scale: 1, QNumHeads: 1, KVNumHeads: 1})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := tensor.Data[float32](y)
		gotS, _ := tensor.Data[float32](s)
		if fmt.Sprint(got, gotS) != fmt.Sprint(tc.want, []float32{tc.state}) {
			t.Errorf("%s: y %v state %v, want %v %v", tc.rule, got, gotS, tc.want, tc.state)
		}
	}
	// Two query heads on one key/value head, from a past state of 1.
	y, _, err := LinearAttention(LinearAttentionInputs{Query: tensor.MustFromSlice([]float32{1, 2}, 1, 1, 2), Key: f(1), Value: f(1),
		PastState: tensor.MustFromSlice([]float32{1}, 1, 1, 1, 1)}, LinearAttentionOptions{UpdateRule: "linear", Scale: 1, QNumHeads: 2, KVNumHeads: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := tensor.Data[float32](y); fmt.Sprint(got) != "[2 4]" {
		t.Errorf("grouped heads: %v, want [2 4]", got)
	}
}

// modifier is a one-input subgraph computing f of its input.
func modifier(f func(x *tensor.Tensor) (tensor.Value, error)) *Subgraph {
	return &Subgraph{Inputs: 1, Outputs: 1, Run: func(_ *Options, in []tensor.Value) ([]tensor.Value, error) {
		y, err := f(in[0].(*tensor.Tensor))
		return []tensor.Value{y}, err
	}}
}

// With K zeros every score is equal: Y is the mean of V's rows; a
// score_mod masking the second key to -Inf leaves the first; masking
// every key gives NaN, as the spec's function body does; prob_mod scales
// the probabilities.
func TestFlexAttention(t *testing.T) {
	q := tensor.MustFromSlice([]float32{1, 2}, 1, 1, 1, 2)
	k := tensor.MustNew(tensor.Float, 1, 1, 2, 2)
	v := tensor.MustFromSlice([]float32{2, 4, 6, 8}, 1, 1, 2, 2)
	mask := func(keys ...int) *Subgraph {
		return modifier(func(x *tensor.Tensor) (tensor.Value, error) {
			y := x.Clone()
			d, _ := tensor.Data[float32](y)
			for _, j := range keys {
				d[j] = float32(math.Inf(-1))
			}
			return y, nil
		})
	}
	half := modifier(func(x *tensor.Tensor) (tensor.Value, error) {
		return Mul(x, tensor.MustFromSlice([]float32{0.5}, 1))
	})
	for _, tc := range []struct {
		o    FlexAttentionOptions
		want string
	}{
		{FlexAttentionOptions{}, "[4 6]"},
		{FlexAttentionOptions{ScoreMod: mask(1)}, "[2 4]"},
		{FlexAttentionOptions{ScoreMod: mask(0, 1)}, "[NaN NaN]"},
		{FlexAttentionOptions{ProbMod: half}, "[2 3]"},
	} {
		y, err := FlexAttention(q, k, v, tc.o)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := tensor.Data[float32](y); fmt.Sprint(got) != tc.want {
			t.Errorf("%+v: %v, want %s", tc.o, got, tc.want)
		}
	}
	// A modifier's output of another shape or type is refused.
	wrong := modifier(func(x *tensor.Tensor) (tensor.Value, error) { return tensor.MustNew(tensor.Float, 1, 1, 1, 3), nil })
	_, err := FlexAttention(q, k, v, FlexAttentionOptions{ScoreMod: wrong})
	wantRule(t, err, "score_mod", "")
	wrong = modifier(func(x *tensor.Tensor) (tensor.Value, error) { return tensor.MustNew(tensor.Double, 1, 1, 1, 2), nil })
	_, err = FlexAttention(q, k, v, FlexAttentionOptions{ProbMod: wrong})
	wantRule(t, err, "prob_mod", "")
}

// Every refusal is one line naming the operator, its version and the rule.
func TestAttentionStateRefusals(t *testing.T) {
	f := func(shape ...int) *tensor.Tensor { return tensor.MustNew(tensor.Float, shape...) }
	check := func(name string, err error, rule string) {
		t.Helper()
		wantRule(t, err, rule, "")
		if !strings.HasPrefix(err.Error(), name) || strings.Contains(err.Error(), "\n") {
			t.Errorf("refusal %q is not one line naming %s", err, name)
		}
	}
	for _, tc := range []struct {
		rule             string
		x, w, bias, past *tensor.Tensor
		act              string
	}{
		{"activation", f(1, 2, 3), f(2, 1, 2), nil, nil, "relu"},
		{"type", tensor.MustNew(tensor.Double, 1, 2, 3), f(2, 1, 2), nil, nil, ""},
		{"type", f(1, 2, 3), tensor.MustNew(tensor.Float16, 2, 1, 2), nil, nil, ""},
		{"rank", f(2, 3), f(2, 1, 2), nil, nil, ""},
		{"weight", f(1, 2, 3), f(2, 2, 2), nil, nil, ""},
		{"weight", f(1, 2, 3), f(2, 1, 0), nil, nil, ""},
		{"bias", f(1, 2, 3), f(2, 1, 2), f(3), nil, ""},
		{"past_state", f(1, 2, 3), f(2, 1, 2), nil, f(1, 2, 2), ""},
	} {
		_, _, err := CausalConvWithState(tc.x, tc.w, tc.bias, tc.past, CausalConvWithStateOptions{Activation: tc.act})
		check("CausalConvWithState-27", err, tc.rule)
	}
	q := f(1, 3, 8)
	for _, tc := range []struct {
		rule string
		in   LinearAttentionInputs
		o    LinearAttentionOptions
	}{
		{"update_rule", LinearAttentionInputs{Query: q, Key: q, Value: q}, LinearAttentionOptions{UpdateRule: "fast", QNumHeads: 2, KVNumHeads: 2}},
		{"heads", LinearAttentionInputs{Query: q, Key: q, Value: q}, LinearAttentionOptions{UpdateRule: "linear"}},
		{"heads", LinearAttentionInputs{Query: q, Key: q, Value: q}, LinearAttentionOptions{UpdateRule: "linear", QNumHeads: 3, KVNumHeads: 2}},
		{"inputs", LinearAttentionInputs{Query: q, Key: q, Value: q}, LinearAttentionOptions{QNumHeads: 2, KVNumHeads: 2}},
		{"inputs", LinearAttentionInputs{Query: q, Key: q, Value: q, Beta: f(1, 3, 1)}, LinearAttentionOptions{UpdateRule: "linear", QNumHeads: 2, KVNumHeads: 2}},
		{"type", LinearAttentionInputs{Query: q, Key: tensor.MustNew(tensor.Float16, 1, 3, 8), Value: q}, LinearAttentionOptions{UpdateRule: "linear", QNumHeads: 2, KVNumHeads: 2}},
		{"rank", LinearAttentionInputs{Query: f(3, 8), Key: q, Value: q}, LinearAttentionOptions{UpdateRule: "linear", QNumHeads: 2, KVNumHeads: 2}},
		{"shape", LinearAttentionInputs{Query: q, Key: f(1, 2, 8), Value: q}, LinearAttentionOptions{UpdateRule: "linear", QNumHeads: 2, KVNumHeads: 2}},
		{"shape", LinearAttentionInputs{Query: q, Key: f(1, 3, 6), Value: q}, LinearAttentionOptions{UpdateRule: "linear", QNumHeads: 2, KVNumHeads: 2}},
		{"decay", LinearAttentionInputs{Query: q, Key: q, Value: q, Decay: f(1, 3, 3)}, LinearAttentionOptions{UpdateRule: "gated", QNumHeads: 2, KVNumHeads: 2}},
		{"beta", LinearAttentionInputs{Query: q, Key: q, Value: q, Beta: f(1, 3, 3)}, LinearAttentionOptions{UpdateRule: "delta", QNumHeads: 2, KVNumHeads: 2}},
		{"past_state", LinearAttentionInputs{Query: q, Key: q, Value: q, PastState: f(1, 2, 4, 3)}, LinearAttentionOptions{UpdateRule: "linear", QNumHeads: 2, KVNumHeads: 2}},
	} {
		_, _, err := LinearAttention(tc.in, tc.o)
		check("LinearAttention-27", err, tc.rule)
	}
	q4 := f(1, 2, 3, 4)
	for _, tc := range []struct {
		rule    string
		q, k, v *tensor.Tensor
		o       FlexAttentionOptions
	}{
		{"type", tensor.MustNew(tensor.Int32, 1, 2, 3, 4), q4, q4, FlexAttentionOptions{}},
		{"rank", f(2, 3, 4), q4, q4, FlexAttentionOptions{}},
		{"shape", q4, f(1, 2, 5, 3), f(1, 2, 5, 4), FlexAttentionOptions{}},
		{"shape", q4, f(1, 2, 5, 4), f(1, 2, 4, 4), FlexAttentionOptions{}},
		{"shape", f(1, 3, 3, 4), q4, q4, FlexAttentionOptions{}},
		{"softmax_precision", q4, q4, q4, FlexAttentionOptions{SoftmaxPrecision: tensor.Int32}},
		{"score_mod", q4, q4, q4, FlexAttentionOptions{ScoreMod: &Subgraph{Inputs: 2, Outputs: 1, Run: func(*Options, []tensor.Value) ([]tensor.Value, error) { return nil, nil }}}},
	} {
		_, err := FlexAttention(tc.q, tc.k, tc.v, tc.o)
		check("FlexAttention-1", err, tc.rule)
	}
}

// The three stop at a cancelled context and refuse a budget their work
// does not fit in, with ErrLimit: FlexAttention's score matrix is charged
// before it is allocated.
func TestAttentionStateBounded(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	stopped := &Options{env: runenv.Env{Ctx: ctx}}
	refuse := &Options{env: runenv.Env{Charge: func(n int64) error {
		if n > 1<<16 {
			return fmt.Errorf("%d bytes above the budget", n)
		}
		return nil
	}}}
	x := seqTensor(2, 64, 512)
	w := seqTensor(64, 1, 4)
	q := seqTensor(1, 256, 4*64)
	q4 := seqTensor(1, 2, 512, 64)
	for _, opt := range []*Options{stopped, refuse} {
		want := context.Canceled
		if opt == refuse {
			want = ErrLimit
		}
		if _, err := runKernel(opt, "CausalConvWithState", 27, 2, nil, x, w); !errors.Is(err, want) {
			t.Errorf("CausalConvWithState: %v, want %v", err, want)
		}
		attrs := map[string]Attribute{"update_rule": {Type: AttrString, String: "linear"},
			"q_num_heads": {Type: AttrInt, Int: 4}, "kv_num_heads": {Type: AttrInt, Int: 4}}
		if _, err := runKernel(opt, "LinearAttention", 27, 2, attrs, q, q, q); !errors.Is(err, want) {
			t.Errorf("LinearAttention: %v, want %v", err, want)
		}
		s, err := Lookup(previewDomain, "FlexAttention", 1)
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.Run(opt, &Node{OpType: "FlexAttention", Domain: previewDomain, Version: 1, NumOutputs: 1}, []tensor.Value{q4, q4, q4})
		if !errors.Is(err, want) {
			t.Errorf("FlexAttention: %v, want %v", err, want)
		}
	}
}
