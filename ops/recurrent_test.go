package ops_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func d3(v []float64, a, b, c int) *tensor.Tensor { return tensor.MustFromSlice(v, a, b, c) }

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

func runRecurrent(t *testing.T, n ops.Node, in ...tensor.Value) []float64s {
	t.Helper()
	out, err := ops.Call(context.Background(), nil, n, in...)
	if err != nil {
		t.Fatal(err)
	}
	var res []float64s
	for _, v := range out {
		f, err := v.(*tensor.Tensor).Float64s()
		if err != nil {
			t.Fatal(err)
		}
		res = append(res, f)
	}
	return res
}

type float64s = []float64

func near(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %v, want %v", what, got, want)
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-14 {
			t.Fatalf("%s: %v, want %v", what, got, want)
		}
	}
}

// The equations of the spec with one hidden unit and one input, in double,
// where each step can be written out by hand.
func TestRecurrentByHand(t *testing.T) {
	x := d3([]float64{1, 2}, 2, 1, 1)
	w, r := d3([]float64{0.5}, 1, 1, 1), d3([]float64{0.25}, 1, 1, 1)
	b := tensor.MustFromSlice([]float64{0.1, 0.2}, 1, 2)

	t.Run("RNN", func(t *testing.T) {
		h1 := math.Tanh(0.5*1 + 0.3)
		h2 := math.Tanh(0.5*2 + 0.25*h1 + 0.3)
		got := runRecurrent(t, ops.Node{OpType: "RNN", NumOutputs: 2}, x, w, r, b)
		near(t, "Y", got[0], []float64{h1, h2})
		near(t, "Y_h", got[1], []float64{h2})
	})
	t.Run("RNN reverse, Relu", func(t *testing.T) {
		h2 := math.Max(0, 0.5*2+0.3)
		h1 := math.Max(0, 0.5*1+0.25*h2+0.3)
		n := ops.Node{OpType: "RNN", NumOutputs: 2, Attrs: map[string]ops.Attribute{
			"direction": {Type: ops.AttrString, String: "reverse"}, "activations": {Type: ops.AttrStrings, Strings: []string{"Relu"}}}}
		got := runRecurrent(t, n, x, w, r, b)
		near(t, "Y", got[0], []float64{h1, h2})
		near(t, "Y_h", got[1], []float64{h1})
	})
	t.Run("RNN bidirectional, sequence_lens", func(t *testing.T) {
		// Two batch entries, lengths 2 and 1; X[t][b] = 1, 2 for b 0 and 3, 4 for b 1.
		x := d3([]float64{1, 3, 2, 4}, 2, 2, 1)
		w2, r2 := d3([]float64{0.5, -0.5}, 2, 1, 1), d3([]float64{0.25, 0.75}, 2, 1, 1)
		lens := tensor.MustFromSlice([]int32{2, 1}, 2)
		f := func(x, h float64, d int) float64 {
			return math.Tanh([]float64{0.5, -0.5}[d]*x + []float64{0.25, 0.75}[d]*h)
		}
		f00 := f(1, 0, 0)
		f01 := f(2, f00, 0)
		f10 := f(3, 0, 0)
		r01 := f(2, 0, 1)
		r00 := f(1, r01, 1)
		r10 := f(3, 0, 1)
		n := ops.Node{OpType: "RNN", NumOutputs: 2, Attrs: map[string]ops.Attribute{"direction": {Type: ops.AttrString, String: "bidirectional"}}}
		got := runRecurrent(t, n, x, w2, r2, nil, lens)
		// Y [seq, dirs, batch, 1]; the second entry's step 1 is 0.
		near(t, "Y", got[0], []float64{f00, f10, r00, r10, f01, 0, r01, 0})
		near(t, "Y_h", got[1], []float64{f01, f10, r00, r10})
	})
	t.Run("GRU", func(t *testing.T) {
		w3, r3 := d3([]float64{0.5, -0.5, 1}, 1, 3, 1), d3([]float64{0.25, 0.5, -1}, 1, 3, 1)
		for _, lbr := range []int64{0, 1} {
			h := 0.3 // initial_h
			var ys []float64
			for _, xt := range []float64{1, 2} {
				z := sigmoid(0.5*xt + 0.25*h)
				rr := sigmoid(-0.5*xt + 0.5*h)
				hh := math.Tanh(1*xt + -1*(rr*h)) // both forms agree without biases
				h = (1-z)*hh + z*h
				ys = append(ys, h)
			}
			n := ops.Node{OpType: "GRU", NumOutputs: 2, Attrs: map[string]ops.Attribute{"linear_before_reset": {Type: ops.AttrInt, Int: lbr}}}
			got := runRecurrent(t, n, x, w3, r3, nil, nil, d3([]float64{0.3}, 1, 1, 1))
			near(t, "Y", got[0], ys)
			near(t, "Y_h", got[1], ys[1:])
		}
	})
	t.Run("LSTM peepholes, input_forget, clip", func(t *testing.T) {
		w4, r4 := d3([]float64{0.5, -0.5, 1, 2}, 1, 4, 1), d3([]float64{0.25, 0.5, -1, 0.1}, 1, 4, 1)
		p := tensor.MustFromSlice([]float64{0.1, 0.2, 0.3}, 1, 3)
		clip := func(v float64) float64 { return math.Min(math.Max(v, -1.5), 1.5) }
		for _, coupled := range []bool{false, true} {
			h, c := 0.0, 0.5
			var ys []float64
			for _, xt := range []float64{1, 2} {
				i := sigmoid(clip(0.5*xt + 0.25*h + 0.1*c))
				f := sigmoid(clip(1*xt + -1*h + 0.3*c))
				if coupled {
					f = 1 - i
				}
				cc := math.Tanh(clip(2*xt + 0.1*h))
				c = f*c + i*cc
				o := sigmoid(clip(-0.5*xt + 0.5*h + 0.2*c))
				h = o * math.Tanh(c)
				ys = append(ys, h)
			}
			n := ops.Node{OpType: "LSTM", NumOutputs: 3, Attrs: map[string]ops.Attribute{"clip": {Type: ops.AttrFloat, Float: 1.5}}}
			if coupled {
				n.Attrs["input_forget"] = ops.Attribute{Type: ops.AttrInt, Int: 1}
			}
			got := runRecurrent(t, n, x, w4, r4, nil, nil, nil, d3([]float64{0.5}, 1, 1, 1), p)
			near(t, "Y", got[0], ys)
			near(t, "Y_h", got[1], ys[1:])
			near(t, "Y_c", got[2], []float64{c})
		}
	})
}

// Layout 1 is layout 0 with the batch axis first, in X, initial_h and
// every output.
func TestRecurrentLayoutsAgree(t *testing.T) {
	seq, batch, input, hidden := 3, 2, 2, 3
	vals := func(n int, s float64) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(math.Sin(float64(i)*s)) * 0.8
		}
		return v
	}
	x0 := vals(seq*batch*input, 1.3)
	x1 := make([]float32, len(x0)) // [batch, seq, input]
	for t0 := 0; t0 < seq; t0++ {
		for b := 0; b < batch; b++ {
			copy(x1[(b*seq+t0)*input:][:input], x0[(t0*batch+b)*input:][:input])
		}
	}
	w := tensor.MustFromSlice(vals(2*4*hidden*input, 0.7), 2, 4*hidden, input)
	r := tensor.MustFromSlice(vals(2*4*hidden*hidden, 0.9), 2, 4*hidden, hidden)
	node := func(layout int64) ops.Node {
		return ops.Node{OpType: "LSTM", Version: 22, NumOutputs: 3, Attrs: map[string]ops.Attribute{
			"direction": {Type: ops.AttrString, String: "bidirectional"}, "layout": {Type: ops.AttrInt, Int: layout}}}
	}
	lens := tensor.MustFromSlice([]int32{3, 2}, 2)
	a := runRecurrent(t, node(0), tensor.MustFromSlice(x0, seq, batch, input), w, r, nil, lens)
	b := runRecurrent(t, node(1), tensor.MustFromSlice(x1, batch, seq, input), w, r, nil, lens)
	// Y: [seq, dirs, batch, hidden] against [batch, seq, dirs, hidden].
	for t0 := 0; t0 < seq; t0++ {
		for d := 0; d < 2; d++ {
			for bb := 0; bb < batch; bb++ {
				for j := 0; j < hidden; j++ {
					if a[0][((t0*2+d)*batch+bb)*hidden+j] != b[0][((bb*seq+t0)*2+d)*hidden+j] {
						t.Fatalf("Y differs at t %d, d %d, b %d, j %d", t0, d, bb, j)
					}
				}
			}
		}
	}
	for k := 1; k < 3; k++ {
		for d := 0; d < 2; d++ {
			for bb := 0; bb < batch; bb++ {
				for j := 0; j < hidden; j++ {
					if a[k][(d*batch+bb)*hidden+j] != b[k][(bb*2+d)*hidden+j] {
						t.Fatalf("output %d differs at d %d, b %d, j %d", k, d, bb, j)
					}
				}
			}
		}
	}
}

func TestRecurrentRefusals(t *testing.T) {
	f32 := func(shape ...int) *tensor.Tensor { return tensor.MustNew(tensor.Float, shape...) }
	x, w, r := f32(2, 1, 3), f32(1, 16, 3), f32(1, 16, 4)
	str := func(s string) ops.Attribute { return ops.Attribute{Type: ops.AttrString, String: s} }
	for _, c := range []struct {
		name  string
		op    string
		attrs map[string]ops.Attribute
		in    []tensor.Value
		want  string
	}{
		{"bad direction", "LSTM", map[string]ops.Attribute{"direction": str("sideways")}, []tensor.Value{x, w, r}, `LSTM-22 [direction] direction "sideways" is not forward, reverse or bidirectional`},
		{"unknown activation", "LSTM", map[string]ops.Attribute{"activations": {Type: ops.AttrStrings, Strings: []string{"Sigmoid", "Swish", "Tanh"}}}, []tensor.Value{x, w, r}, `LSTM-22 [activations] unknown activation "Swish"`},
		{"activation count", "GRU", map[string]ops.Attribute{"activations": {Type: ops.AttrStrings, Strings: []string{"Sigmoid"}}}, []tensor.Value{x, f32(1, 12, 3), f32(1, 12, 4)}, "GRU-22 [activations] 1 activations, expected 2 per direction"},
		{"W rows", "LSTM", nil, []tensor.Value{x, f32(1, 15, 3), r}, "LSTM-22 [shape] W has shape [1 15 3], expected [1 16 3]"},
		{"W input", "LSTM", nil, []tensor.Value{x, f32(1, 16, 2), r}, "LSTM-22 [shape] W has shape [1 16 2], expected [1 16 3]"},
		{"R rank", "RNN", nil, []tensor.Value{x, f32(1, 4, 3), f32(4, 4)}, "RNN-22 [shape] R has shape [4 4]"},
		{"R square", "LSTM", nil, []tensor.Value{x, w, f32(1, 16, 5)}, "LSTM-22 [shape] W has shape [1 16 3], expected [1 20 3]"},
		{"B", "LSTM", nil, []tensor.Value{x, w, r, f32(1, 16)}, "LSTM-22 [shape] B has shape [1 16], expected [1 32]"},
		{"directions", "LSTM", map[string]ops.Attribute{"direction": str("bidirectional")}, []tensor.Value{x, w, r}, "LSTM-22 [shape] W has shape [1 16 3], expected [2 16 3]"},
		{"hidden_size", "LSTM", map[string]ops.Attribute{"hidden_size": {Type: ops.AttrInt, Int: 5}}, []tensor.Value{x, w, r}, "LSTM-22 [hidden_size] hidden_size 5, R has shape [1 16 4]"},
		{"X rank", "LSTM", nil, []tensor.Value{f32(2, 3), w, r}, "LSTM-22 [shape] X has shape [2 3], expected rank 3"},
		{"type", "LSTM", nil, []tensor.Value{x, tensor.MustNew(tensor.Double, 1, 16, 3), r}, "LSTM-22 [type] W is double, X is float"},
		{"int X", "RNN", nil, []tensor.Value{tensor.MustNew(tensor.Int32, 2, 1, 3), w, r}, "RNN-22 [type] X of type int32 is not allowed"},
		{"sequence_lens type", "LSTM", nil, []tensor.Value{x, w, r, nil, tensor.MustNew(tensor.Int64, 1)}, "LSTM-22 [type] sequence_lens is int64, expected int32"},
		{"sequence_lens value", "LSTM", nil, []tensor.Value{x, w, r, nil, tensor.MustFromSlice([]int32{3}, 1)}, "LSTM-22 [sequence_lens] sequence_lens[0] = 3 is outside [0, 2]"},
		{"initial_h", "LSTM", nil, []tensor.Value{x, w, r, nil, nil, f32(1, 2, 4)}, "LSTM-22 [shape] initial_h has shape [1 2 4], expected [1 1 4]"},
		{"P", "LSTM", nil, []tensor.Value{x, w, r, nil, nil, nil, nil, f32(1, 16)}, "LSTM-22 [shape] P has shape [1 16], expected [1 12]"},
		{"clip", "LSTM", map[string]ops.Attribute{"clip": {Type: ops.AttrFloat, Float: -1}}, []tensor.Value{x, w, r}, "LSTM-22 [clip] clip -1 is not a positive threshold"},
		{"layout", "LSTM", map[string]ops.Attribute{"layout": {Type: ops.AttrInt, Int: 2}}, []tensor.Value{x, w, r}, "LSTM-22 [layout] layout 2 is not 0 or 1"},
		{"bfloat16 before 22", "LSTM", nil, nil, "LSTM-14 [type] X of type bfloat16 is not allowed in version 14"},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := ops.Node{OpType: c.op, Attrs: c.attrs, Version: 22}
			in := c.in
			if in == nil {
				bf := func(s ...int) tensor.Value { return tensor.MustNew(tensor.BFloat16, s...) }
				n.Version = 21
				in = []tensor.Value{bf(2, 1, 3), bf(1, 16, 3), bf(1, 16, 4)}
			}
			_, err := ops.Call(context.Background(), nil, n, in...)
			var e *ops.Error
			if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("got %v, want %s...", err, c.want)
			}
		})
	}
}

func TestRecurrentBoundsAndCancellation(t *testing.T) {
	x := tensor.MustNew(tensor.Float, 50, 4, 8)
	w, r := tensor.MustNew(tensor.Float, 1, 64, 8), tensor.MustNew(tensor.Float, 1, 64, 16)
	n := ops.Node{OpType: "LSTM", NumOutputs: 1}
	_, err := ops.Call(context.Background(), &ops.Options{MaxTensorBytes: 4 << 10}, n, x, w, r)
	if !errors.Is(err, ops.ErrLimit) {
		t.Errorf("a scratch of 50*4*64 floats under a 4 KiB cap: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ops.Call(ctx, nil, n, x, w, r); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	// Hostile sizes: an empty X whose other axes are huge (2^40 where
	// int has 64 bits, as long as it can be elsewhere).
	huge := int(min(1<<40, int64(math.MaxInt)))
	for _, c := range []struct{ x, w, r []int }{
		{[]int{huge, 1 << 20, 0}, []int{1, 4, 0}, []int{1, 4, 1}},
		{[]int{huge, 1 << 22, 0}, []int{2, 4, 0}, []int{2, 4, 1}},
	} {
		x, err1 := tensor.New(tensor.Float, c.x...)
		w, err2 := tensor.New(tensor.Float, c.w...)
		r, err3 := tensor.New(tensor.Float, c.r...)
		if err1 != nil || err2 != nil || err3 != nil {
			continue // not even a tensor
		}
		n := ops.Node{OpType: "LSTM", NumOutputs: 3}
		if c.w[0] == 2 {
			n.Attrs = map[string]ops.Attribute{"direction": {Type: ops.AttrString, String: "bidirectional"}}
		}
		var e *ops.Error
		if _, err := ops.Call(context.Background(), nil, n, x, w, r); !errors.As(err, &e) || e.Rule != "size" {
			t.Errorf("X %v, W %v, R %v: %v", c.x, c.w, c.r, err)
		}
	}
	// Cancelled during the run: the steps look at the context.
	late := &cancelledAfter{Context: context.Background()}
	late.looks.Store(10)
	_, err = ops.Call(late, nil, n, x, w, r)
	var e *ops.Error
	if !errors.Is(err, context.Canceled) || !errors.As(err, &e) || e.Rule != "cancelled" {
		t.Errorf("cancelled during the run: %v", err)
	}
}

// cancelledAfter is a context that reports itself cancelled after a
// number of looks.
type cancelledAfter struct {
	context.Context
	looks atomic.Int32
}

func (c *cancelledAfter) Err() error {
	if c.looks.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// The choices docs/divergences.md lists against onnxruntime: the ONNX
// defaults of the activations' alpha and beta, and a sequence length of 0.
func TestRecurrentActivationDefaults(t *testing.T) {
	x := d3([]float64{0.5}, 1, 1, 1)
	w, r := d3([]float64{1}, 1, 1, 1), d3([]float64{0}, 1, 1, 1)
	for _, c := range []struct {
		act  string
		want float64
	}{
		{"ThresholdedRelu", 0}, // alpha 1: 0.5 is below it (onnxruntime: alpha 0, 0.5)
		{"Affine", 0.5},        // 1*x + 0 (onnxruntime: 0)
		{"ScaledTanh", math.Tanh(0.5)},
	} {
		n := ops.Node{OpType: "RNN", NumOutputs: 1, Attrs: map[string]ops.Attribute{"activations": {Type: ops.AttrStrings, Strings: []string{c.act}}}}
		near(t, c.act, runRecurrent(t, n, x, w, r)[0], []float64{c.want})
	}
	t.Run("length 0", func(t *testing.T) {
		h0 := d3([]float64{0.25}, 1, 1, 1)
		got := runRecurrent(t, ops.Node{OpType: "RNN", NumOutputs: 2}, x, w, r, nil, tensor.MustFromSlice([]int32{0}, 1), h0)
		near(t, "Y", got[0], []float64{0})
		near(t, "Y_h", got[1], []float64{0.25})
	})
}
