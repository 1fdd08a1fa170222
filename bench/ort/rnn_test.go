//go:build ort

package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/tensor"
)

// Differential tests of LSTM, GRU and RNN against onnxruntime:
// random sizes, directions, opsets 14 and 22, optional inputs
// (B, sequence_lens, initial_h, initial_c, P), clip, input_forget,
// linear_before_reset, and every activation with alpha and beta.
//
// Tolerance abs 1e-5 + rel 1e-4 (a few steps of float32 sums in different
// orders and onnxruntime's MLAS sigmoid and tanh, a few ulps from ours,
// carried through the recurrence). onnxruntime runs the three in float
// only.
// sequence_lens stays in [1, seq]: onnxruntime refuses a length of 0,
// which onnxshape runs (Y_h is initial_h; see ops/lstm.go). onnxruntime
// refuses layout 1 and runs GRU and RNN in float only: those are left to
// onnxshape's own tests (ops/recurrent_test.go checks layout 1 against 0).

var rnnActivations = []string{"Relu", "Tanh", "Sigmoid", "Affine", "LeakyRelu", "ThresholdedRelu",
	"ScaledTanh", "HardSigmoid", "Elu", "Softsign", "Softplus"}

// smallFloats fills a tensor of dt with values in [-s, s).
func smallFloats(r *rand.Rand, dt tensor.DataType, s float64, shape ...int) *tensor.Tensor {
	n, _ := tensor.NumElements(shape)
	if dt == tensor.Double {
		v := make([]float64, n)
		for i := range v {
			v[i] = (2*r.Float64() - 1) * s
		}
		return tensor.MustFromSlice(v, shape...)
	}
	v := make([]float32, n)
	for i := range v {
		v[i] = float32((2*r.Float64() - 1) * s)
	}
	return tensor.MustFromSlice(v, shape...)
}

func randRecurrentCase(r *rand.Rand, op string) *diffCase {
	gates := map[string]int{"LSTM": 4, "GRU": 3, "RNN": 1}[op]
	perDir := map[string]int{"LSTM": 3, "GRU": 2, "RNN": 1}[op]
	outputs := map[string]int{"LSTM": 3, "GRU": 2, "RNN": 2}[op]
	opset := pick(r, 14, 22)
	dt := tensor.Float // onnxruntime runs the three in float only
	known := ""
	seq, batch, input, hidden := 1+r.IntN(6), 1+r.IntN(4), 1+r.IntN(6), 1+r.IntN(8)
	// Now and then a real layer's size, over more steps, with the default
	// (saturating) activations and weights of a trained layer's scale: with
	// unbounded activations (Relu, Affine, ...) over many steps the values
	// grow and both engines' rounding errors with them, past any fixed
	// tolerance; the small cases try those.
	scale, big := 0.7, r.IntN(8) == 0
	if big {
		seq, input, hidden = 10+r.IntN(30), 16+r.IntN(48), 16+r.IntN(112)
		scale = 2 / math.Sqrt(float64(hidden))
	}
	dir := pick(r, "forward", "reverse", "bidirectional")
	dirs := 1
	if dir == "bidirectional" {
		dirs = 2
	}
	layout := 0 // onnxruntime refuses layout 1 ("Batchwise recurrent operations are not supported")
	attrs := []builder.Arg{builder.String("direction", dir), builder.Int("hidden_size", hidden), builder.Int("layout", layout)}
	desc := fmt.Sprintf("%s-%d %v seq %d batch %d input %d hidden %d %s layout %d", op, opset, dt, seq, batch, input, hidden, dir, layout)
	if r.IntN(3) == 0 {
		c := float32(0.3 + 2*r.Float64())
		attrs = append(attrs, builder.Float("clip", c))
		desc += fmt.Sprintf(" clip %v", c)
	}
	if op == "LSTM" && r.IntN(4) == 0 {
		attrs = append(attrs, builder.Int("input_forget", 1))
		desc += " input_forget"
	}
	if op == "GRU" && r.IntN(2) == 0 {
		attrs = append(attrs, builder.Int("linear_before_reset", 1))
		desc += " linear_before_reset"
	}
	if !big && r.IntN(2) == 0 {
		names := make([]string, perDir*dirs)
		for i := range names {
			names[i] = pick(r, rnnActivations...)
		}
		alphas := []float32{0.5, 1.5, 0.1, 0.9, 0.3, 0.7}[:r.IntN(7)]
		betas := []float32{0.3, -0.2, 0.7, 0.1, -0.5, 0.2}[:r.IntN(7)]
		// Where a list runs out, Affine, ThresholdedRelu and ScaledTanh
		// take 0 in onnxruntime and the ONNX operators' defaults in
		// onnxshape (docs/divergences.md).
		ka, kb := 0, 0
		for _, f := range names {
			if f == "Affine" || f == "ScaledTanh" || f == "HardSigmoid" || f == "LeakyRelu" || f == "ThresholdedRelu" || f == "Elu" {
				ka++
				if ka > len(alphas) && (f == "Affine" || f == "ThresholdedRelu" || f == "ScaledTanh") {
					known = "docs/divergences.md: a recurrent activation's default alpha or beta"
				}
			}
			if f == "Affine" || f == "ScaledTanh" || f == "HardSigmoid" {
				kb++
				if kb > len(betas) {
					known = "docs/divergences.md: a recurrent activation's default alpha or beta"
				}
			}
		}
		attrs = append(attrs, builder.Strings("activations", names...))
		if len(alphas) > 0 {
			attrs = append(attrs, builder.Floats("activation_alpha", alphas...))
		}
		if len(betas) > 0 {
			attrs = append(attrs, builder.Floats("activation_beta", betas...))
		}
		desc += fmt.Sprintf(" %v alpha %v beta %v", names, alphas, betas)
	}
	xShape := []int{seq, batch, input}
	state := []int{dirs, batch, hidden}
	if layout == 1 {
		xShape = []int{batch, seq, input}
		state = []int{batch, dirs, hidden}
	}
	ins := []diffInput{
		{"X", smallFloats(r, dt, 1, xShape...)},
		{"W", smallFloats(r, dt, scale, dirs, gates*hidden, input)},
		{"R", smallFloats(r, dt, scale, dirs, gates*hidden, hidden)},
	}
	maxIn := 6
	if op == "LSTM" {
		maxIn = 8
	}
	present := []bool{true, true, true}
	for i := 3; i < maxIn; i++ {
		if r.IntN(2) == 0 {
			present = append(present, false)
			continue
		}
		present = append(present, true)
		switch i {
		case 3:
			ins = append(ins, diffInput{"B", smallFloats(r, dt, 0.5, dirs, 2*gates*hidden)})
		case 4:
			lens := make([]int32, batch)
			for b := range lens {
				lens[b] = int32(1 + r.IntN(seq))
			}
			ins = append(ins, diffInput{"sequence_lens", tensor.MustFromSlice(lens, batch)})
			desc += fmt.Sprintf(" lens %v", lens)
		case 5:
			ins = append(ins, diffInput{"initial_h", smallFloats(r, dt, 1, state...)})
		case 6:
			ins = append(ins, diffInput{"initial_c", smallFloats(r, dt, 1, state...)})
		case 7:
			ins = append(ins, diffInput{"P", smallFloats(r, dt, 0.5, dirs, 3*hidden)})
		}
	}
	return &diffCase{name: desc, opset: opset, inputs: ins, abs: 1e-5, rel: 1e-4, known: known,
		build: func(b *builder.Builder, in []builder.Value) []builder.Value {
			args := []builder.Arg{}
			k := 0
			for _, p := range present {
				if p {
					args = append(args, in[k])
					k++
				} else {
					args = append(args, builder.None)
				}
			}
			return b.OpN(op, outputs, append(args, attrs...)...)
		}}
}

func TestRecurrentAgainstORT(t *testing.T) {
	for i, op := range []string{"LSTM", "GRU", "RNN"} {
		t.Run(op, func(t *testing.T) {
			family(t, uint64(2500+i), casesPerFamily, func(r *rand.Rand, _ int) *diffCase { return randRecurrentCase(r, op) })
		})
	}
}
