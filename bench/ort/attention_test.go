//go:build ort

package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/tensor"
)

// Differential tests of the attention family of the recurrent and control-flow round against
// onnxruntime on random shapes and attributes. Tolerances: RotaryEmbedding
// abs 1e-5, rel 1e-5 (a rotation is two products and a sum; onnxruntime
// rounds each in float32, onnxshape once from float64); Attention abs 1e-4,
// rel 1e-4 in float32 (sums over the head and the keys in other orders,
// exp32 against MLAS's exp), and the half types' 2e-3.

func TestORTRotaryEmbedding(t *testing.T) {
	family(t, 25, casesPerFamily, func(r *rand.Rand, i int) *diffCase {
		dt := pick(r, tensor.Float, tensor.Float16)
		batch, heads, seq := 1+r.IntN(2), 1+r.IntN(3), 1+r.IntN(5)
		head := 2 * (1 + r.IntN(8))
		rotary := 0
		if r.IntN(2) == 0 {
			rotary = 2 * (1 + r.IntN(head/2))
		}
		half := head / 2
		if rotary != 0 {
			half = rotary / 2
		}
		interleaved := r.IntN(2)
		attrs := []builder.Arg{builder.Int("interleaved", interleaved), builder.Int("rotary_embedding_dim", rotary)}
		x := randTensor(r, dt, []int{batch, heads, seq, head})
		if r.IntN(2) == 0 {
			x = randTensor(r, dt, []int{batch, seq, heads * head})
			attrs = append(attrs, builder.Int("num_heads", heads))
		}
		name := fmt.Sprintf("RotaryEmbedding %v %v rotary=%d interleaved=%d", dt, x.Shape(), rotary, interleaved)
		var c *diffCase
		if r.IntN(2) == 0 {
			rows := seq + r.IntN(4)
			ids := make([]int64, batch*seq)
			for k := range ids {
				ids[k] = int64(r.IntN(rows))
			}
			pos := tensor.MustFromSlice(ids, batch, seq)
			c = &diffCase{name: name + " position_ids", opset: 23,
				inputs: inputsOf(x, randTensor(r, dt, []int{rows, half}), randTensor(r, dt, []int{rows, half}), pos)}
		} else {
			c = &diffCase{name: name, opset: 23,
				inputs: inputsOf(x, randTensor(r, dt, []int{batch, seq, half}), randTensor(r, dt, []int{batch, seq, half}))}
		}
		c.build = node("RotaryEmbedding", attrs...)
		c.abs, c.rel = 1e-5, 1e-5
		halfTolerance(c, dt)
		return c
	})
}

func TestORTAttention(t *testing.T) {
	family(t, 26, casesPerFamily, func(r *rand.Rand, i int) *diffCase {
		dt := pick(r, tensor.Float, tensor.Float16)
		batch, kvHeads, group := 1+r.IntN(2), 1+r.IntN(3), 1+r.IntN(3)
		qHeads := kvHeads * group
		qSeq, kvSeq, headK, headV := 1+r.IntN(6), 1+r.IntN(8), 1+r.IntN(16), 1+r.IntN(16)
		if r.IntN(8) == 0 {
			qSeq, kvSeq = 64+r.IntN(40), 256+r.IntN(100)
		}
		past := 0
		if r.IntN(3) == 0 {
			past = 1 + r.IntN(4)
		}
		total := past + kvSeq
		attrs := []builder.Arg{}
		var q, k, v *tensor.Tensor
		threeD := r.IntN(2) == 0
		if threeD {
			q = randTensor(r, dt, []int{batch, qSeq, qHeads * headK})
			k = randTensor(r, dt, []int{batch, kvSeq, kvHeads * headK})
			v = randTensor(r, dt, []int{batch, kvSeq, kvHeads * headV})
			attrs = append(attrs, builder.Int("q_num_heads", qHeads), builder.Int("kv_num_heads", kvHeads))
		} else {
			q = randTensor(r, dt, []int{batch, qHeads, qSeq, headK})
			k = randTensor(r, dt, []int{batch, kvHeads, kvSeq, headK})
			v = randTensor(r, dt, []int{batch, kvHeads, kvSeq, headV})
		}
		ins := []*tensor.Tensor{q, k, v}
		var mask *tensor.Tensor
		desc := ""
		if r.IntN(2) == 0 {
			shape := []int{batch, qHeads, qSeq, total}[r.IntN(3):]
			// Broadcasting the query rows is the spec's; onnxruntime
			// refuses it (docs/divergences.md), so only the batch and the
			// heads broadcast here.
			for d := 0; d < len(shape)-2; d++ {
				if r.IntN(3) == 0 {
					shape[d] = 1
				}
			}
			if r.IntN(2) == 0 {
				n, _ := tensor.NumElements(shape)
				b := make([]bool, n)
				for j := range b {
					b[j] = r.IntN(4) != 0
				}
				mask = tensor.MustFromSlice(b, shape...)
			} else {
				mask = randTensor(r, dt, shape)
			}
			desc += fmt.Sprintf(" mask %v%v", mask.DataType(), shape)
		}
		var pk, pv *tensor.Tensor
		if past > 0 {
			pk = randTensor(r, dt, []int{batch, kvHeads, past, headK})
			pv = randTensor(r, dt, []int{batch, kvHeads, past, headV})
			desc += fmt.Sprintf(" past %d", past)
		}
		if r.IntN(3) == 0 {
			attrs = append(attrs, builder.Int("is_causal", 1))
			desc += " causal"
		}
		if r.IntN(4) == 0 {
			attrs = append(attrs, builder.Float("softcap", 1+3*r.Float32()))
			desc += " softcap"
		}
		if r.IntN(4) == 0 {
			attrs = append(attrs, builder.Float("scale", 0.05+r.Float32()/4))
			desc += " scale"
		}
		outputs := 1
		if past > 0 {
			outputs = 3
		}
		c := &diffCase{name: fmt.Sprintf("Attention %v Q%v K%v V%v%s", dt, q.Shape(), k.Shape(), v.Shape(), desc), opset: 23}
		present := []*tensor.Tensor{}
		for _, x := range []*tensor.Tensor{mask, pk, pv} {
			if x != nil {
				present = append(present, x)
			}
		}
		c.inputs = inputsOf(append(ins, present...)...)
		c.build = func(b *builder.Builder, in []builder.Value) []builder.Value {
			args := []builder.Arg{in[0], in[1], in[2]}
			next := 3
			for _, x := range []*tensor.Tensor{mask, pk, pv} {
				if x == nil {
					args = append(args, builder.None)
					continue
				}
				args = append(args, in[next])
				next++
			}
			for len(args) > 3 && args[len(args)-1] == builder.None {
				args = args[:len(args)-1]
			}
			out := b.OpN("Attention", outputs, append(args, attrs...)...)
			return out
		}
		c.abs, c.rel = 1e-4, 1e-4
		if past > 0 && kvSeq != qSeq && strings.Contains(desc, "causal") {
			c.known = "causal with a past when K's sequence is not Q's (docs/divergences.md)"
		}
		if dt == tensor.Float16 && total > 64 {
			c.known = "onnxruntime's float16 attention over hundreds of keys (docs/divergences.md)"
		}
		if dt == tensor.Float16 {
			// onnxruntime keeps float16 intermediates (scores,
			// probabilities) where onnxshape computes in float32.
			c.abs, c.rel = 5e-3, 1e-2
		}
		return c
	})
}

// TestORTDivergencesAttention pins what the differential tests of the recurrent and control-flow round found
// (docs/divergences.md, "Attention"): onnxshape gives the specification's
// result, onnxruntime another or a refusal.
func TestORTDivergencesAttention(t *testing.T) {
	pin := func(t *testing.T, c *diffCase, want *tensor.Tensor) {
		t.Helper()
		model, names, err := c.buildModel(nil)
		if err != nil {
			t.Fatal(err)
		}
		ours, err := runOurs(model, c)
		if err != nil {
			t.Fatalf("onnxshape: %v", err)
		}
		if got := ours[names[0]]; !got.Equal(want) {
			t.Errorf("onnxshape gives %v, the specification %v", got, want)
		}
		theirs, err := runORTModel(model, c, names, nil)
		switch {
		case err != nil:
			t.Logf("onnxruntime refuses: %v", err)
		case theirs[0].Equal(want):
			t.Errorf("onnxruntime now gives the specification's result: drop the divergence %q", c.name)
		default:
			t.Logf("onnxruntime gives %v", theirs[0])
		}
	}
	// With K all zeros, Y is the mean of the values a query may see. The
	// query of a one-token step after a past of one sees keys j <= 0 +
	// past (op_attention.py: offset = past_key.shape[2]): the past's value
	// 1 and the first new value 2, mean 1.5; not the second new value.
	t.Run("causal with a past, K longer than Q", func(t *testing.T) {
		c := &diffCase{name: "Attention causal past 1, q 1, kv 2", opset: 23,
			inputs: inputsOf(tensor.MustFromSlice([]float32{1}, 1, 1, 1, 1), tensor.MustNew(tensor.Float, 1, 1, 2, 1),
				tensor.MustFromSlice([]float32{2, 4}, 1, 1, 2, 1), tensor.MustNew(tensor.Float, 1, 1, 1, 1),
				tensor.MustFromSlice([]float32{1}, 1, 1, 1, 1)),
			build: func(b *builder.Builder, in []builder.Value) []builder.Value {
				return b.OpN("Attention", 3, in[0], in[1], in[2], builder.None, in[3], in[4], builder.Int("is_causal", 1))
			}}
		pin(t, c, tensor.MustFromSlice([]float32{1.5}, 1, 1, 1, 1))
	})
	// A mask of one row broadcasts over the query rows (numpy broadcasting
	// to [batch, heads, q seq, total seq]); here it masks the second key.
	t.Run("mask broadcast over the query rows", func(t *testing.T) {
		c := &diffCase{name: "Attention mask [1, 2] over 2 query rows", opset: 23,
			inputs: inputsOf(tensor.MustFromSlice([]float32{1, 1}, 1, 1, 2, 1), tensor.MustNew(tensor.Float, 1, 1, 2, 1),
				tensor.MustFromSlice([]float32{2, 4}, 1, 1, 2, 1), tensor.MustFromSlice([]bool{true, false}, 1, 2)),
			build: node("Attention")}
		pin(t, c, tensor.MustFromSlice([]float32{2, 2}, 1, 1, 2, 1))
	})
}
