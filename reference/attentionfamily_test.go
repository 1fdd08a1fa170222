package reference_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/x448/float16"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// Random nodes of the attention family and the losses through both
// engines, as TestEnginesAgreeOnRandomValidNodes does for the others:
// RotaryEmbedding and the losses agree bit for bit; Attention within the
// bound that reference.Agree states.
var attentionGenerators = map[string]func(r *rand.Rand) (*ops.Node, []tensor.Value){
	"RotaryEmbedding":           randRotaryEmbedding,
	"Attention":                 randAttention,
	"NegativeLogLikelihoodLoss": func(r *rand.Rand) (*ops.Node, []tensor.Value) { return randLoss(r, "NegativeLogLikelihoodLoss") },
	"SoftmaxCrossEntropyLoss":   func(r *rand.Rand) (*ops.Node, []tensor.Value) { return randLoss(r, "SoftmaxCrossEntropyLoss") },
}

func randRotaryEmbedding(r *rand.Rand) (*ops.Node, []tensor.Value) {
	dt := []tensor.DataType{tensor.Float, tensor.Float16, tensor.BFloat16}[r.IntN(3)]
	batch, heads, seq := 1+r.IntN(2), 1+r.IntN(3), 1+r.IntN(4)
	head := 2 * (1 + r.IntN(4))
	rotary := 0
	if r.IntN(2) == 0 {
		rotary = 2 * (1 + r.IntN(head/2))
	}
	if r.IntN(30) == 0 {
		rotary = head + 2 // refused
	}
	half := head / 2
	if rotary != 0 {
		half = rotary / 2
	}
	attrs := map[string]ops.Attribute{"interleaved": attrInt(r.IntN(2)), "rotary_embedding_dim": attrInt(rotary)}
	x := randTensor(r, dt, []int{batch, heads, seq, head}, -3, 3, false)
	if r.IntN(2) == 0 {
		x = randTensor(r, dt, []int{batch, seq, heads * head}, -3, 3, false)
		attrs["num_heads"] = attrInt(heads)
	}
	if r.IntN(2) == 0 {
		rows := seq + r.IntN(4)
		pos := tensor.MustNew(tensor.Int64, batch, seq)
		ids, _ := tensor.Data[int64](pos)
		for i := range ids {
			ids[i] = int64(r.IntN(rows))
		}
		if r.IntN(30) == 0 {
			ids[0] = int64(rows) // refused
		}
		return &ops.Node{OpType: "RotaryEmbedding", Attrs: attrs}, []tensor.Value{x,
			randTensor(r, dt, []int{rows, half}, -1, 1, false), randTensor(r, dt, []int{rows, half}, -1, 1, false), pos}
	}
	return &ops.Node{OpType: "RotaryEmbedding", Attrs: attrs}, []tensor.Value{x,
		randTensor(r, dt, []int{batch, seq, half}, -1, 1, false), randTensor(r, dt, []int{batch, seq, half}, -1, 1, false)}
}

func TestAttentionFamilyEnginesAgree(t *testing.T) {
	iterations := 300
	if testing.Short() {
		iterations = 60
	}
	for name, gen := range attentionGenerators {
		t.Run(name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(25, uint64(len(name))))
			ran := 0
			for range iterations {
				n, in := gen(r)
				m := *n
				if compareEngines(t, ops.ProfileONNX, &m, in) {
					ran++
				}
			}
			t.Logf("%d of %d runs produced outputs", ran, iterations)
			if ran < iterations/2 {
				t.Errorf("only %d of %d runs produced outputs", ran, iterations)
			}
		})
	}
}

// randLoss draws scores [N, C, d...], targets (now and then ignore_index,
// rarely out of range), weights or none, and a reduction.
func randLoss(r *rand.Rand, name string) (*ops.Node, []tensor.Value) {
	dt := []tensor.DataType{tensor.Float, tensor.Double, tensor.Float16, tensor.BFloat16}[r.IntN(4)]
	shape := []int{1 + r.IntN(3), 1 + r.IntN(4)}
	for range r.IntN(3) {
		shape = append(shape, 1+r.IntN(3))
	}
	c := shape[1]
	targetShape := append([]int{shape[0]}, shape[2:]...)
	target := tensor.MustNew([]tensor.DataType{tensor.Int32, tensor.Int64}[r.IntN(2)], targetShape...)
	attrs := map[string]ops.Attribute{"reduction": attrStr([]string{"none", "sum", "mean"}[r.IntN(3)])}
	ignore := -1 - r.IntN(2)*(c-1)
	if r.IntN(2) == 0 {
		attrs["ignore_index"] = attrInt(ignore)
	}
	count := target.Len()
	for i := range count {
		v := int64(r.IntN(c))
		switch r.IntN(8) {
		case 0:
			v = int64(ignore)
		case 1:
			if r.IntN(20) == 0 {
				v = int64(c) // refused
			}
		}
		if target.DataType() == tensor.Int32 {
			d, _ := tensor.Data[int32](target)
			d[i] = int32(v)
		} else {
			d, _ := tensor.Data[int64](target)
			d[i] = v
		}
	}
	in := []tensor.Value{randTensor(r, dt, shape, -4, 1, false), target}
	if r.IntN(2) == 0 {
		in = append(in, randTensor(r, dt, []int{c}, 0, 2, false))
	}
	n := &ops.Node{OpType: name, Version: pickVersion(r, name), Attrs: attrs, NumOutputs: 1}
	if name == "SoftmaxCrossEntropyLoss" && r.IntN(2) == 0 {
		n.NumOutputs = 2
	}
	return n, in
}

// randAttention draws an Attention node of every feature: 3-D or 4-D,
// grouped heads, a past, masks of every rank (bool or float, some -inf,
// shorter than the keys), causal, nonpad_kv_seqlen, softcap, scale and
// the scores at every stage; now and then sizes that cross the engine's
// tiles (96 rows, 512 keys), so that the online softmax rescales across
// whole and partial tiles.
func randAttention(r *rand.Rand) (*ops.Node, []tensor.Value) {
	dt := []tensor.DataType{tensor.Float, tensor.Double, tensor.Float16, tensor.BFloat16}[r.IntN(4)]
	batch, kvHeads, group := 1+r.IntN(2), 1+r.IntN(3), 1+r.IntN(3)
	qHeads := kvHeads * group
	qSeq, kvSeq, headK, headV := 1+r.IntN(5), 1+r.IntN(6), 1+r.IntN(8), 1+r.IntN(8)
	if r.IntN(10) == 0 {
		qSeq, kvSeq, batch, kvHeads, qHeads = 90+r.IntN(20), 500+r.IntN(30), 1, 1, 1+r.IntN(2)
	}
	past := 0
	if r.IntN(3) == 0 {
		past = r.IntN(4)
	}
	total := past + kvSeq
	version := 23 + r.IntN(2)
	attrs := map[string]ops.Attribute{}
	var q, k, v *tensor.Tensor
	if r.IntN(2) == 0 {
		q = randTensor(r, dt, []int{batch, qHeads, qSeq, headK}, -1, 1, false)
		k = randTensor(r, dt, []int{batch, kvHeads, kvSeq, headK}, -1, 1, false)
		v = randTensor(r, dt, []int{batch, kvHeads, kvSeq, headV}, -1, 1, false)
	} else {
		q = randTensor(r, dt, []int{batch, qSeq, qHeads * headK}, -1, 1, false)
		k = randTensor(r, dt, []int{batch, kvSeq, kvHeads * headK}, -1, 1, false)
		v = randTensor(r, dt, []int{batch, kvSeq, kvHeads * headV}, -1, 1, false)
		attrs["q_num_heads"], attrs["kv_num_heads"] = attrInt(qHeads), attrInt(kvHeads)
	}
	in := []tensor.Value{q, k, v, nil, nil, nil, nil}
	if r.IntN(2) == 0 {
		shape := []int{batch, qHeads, qSeq, total - r.IntN(2)}[r.IntN(3):]
		for i := 0; i < len(shape)-1; i++ {
			if r.IntN(3) == 0 {
				shape[i] = 1
			}
		}
		if r.IntN(2) == 0 {
			m := randTensor(r, tensor.Bool, shape, 0, 1, false)
			b := m.Bytes()
			for i := range b {
				b[i] = byte(min(r.IntN(4), 1)) // mostly true
			}
			in[3] = m
		} else {
			m := randTensor(r, dt, shape, -2, 2, false)
			if f, ok := m.Float64s(); ok == nil && len(f) > 0 && r.IntN(3) == 0 {
				inf := randTensor(r, dt, []int{1}, 0, 0, false)
				size := dt.Size()
				copy(m.Bytes()[r.IntN(len(f))*size:], negInfOf(dt, inf).Bytes())
			}
			in[3] = m
		}
	}
	if past > 0 || r.IntN(4) == 0 {
		in[4] = randTensor(r, dt, []int{batch, kvHeads, past, headK}, -1, 1, false)
		in[5] = randTensor(r, dt, []int{batch, kvHeads, past, headV}, -1, 1, false)
	}
	if version == 24 && r.IntN(3) == 0 {
		nonpad := tensor.MustNew(tensor.Int64, batch)
		d, _ := tensor.Data[int64](nonpad)
		for i := range d {
			d[i] = int64(r.IntN(total + 1))
		}
		in[6] = nonpad
	}
	if r.IntN(3) == 0 {
		attrs["is_causal"] = attrInt(1)
	}
	if r.IntN(3) == 0 {
		attrs["softcap"] = ops.Attribute{Type: ops.AttrFloat, Float: 0.5 + r.Float32()*3}
	}
	if r.IntN(3) == 0 {
		attrs["scale"] = ops.Attribute{Type: ops.AttrFloat, Float: r.Float32()}
	}
	n := &ops.Node{OpType: "Attention", Version: version, Attrs: attrs, NumOutputs: []int{1, 3, 4}[r.IntN(3)]}
	if n.NumOutputs == 4 {
		attrs["qk_matmul_output_mode"] = attrInt(r.IntN(4))
	}
	if r.IntN(25) == 0 {
		attrs["qk_matmul_output_mode"] = attrInt(4) // refused
	}
	for len(in) > 3 && in[len(in)-1] == nil {
		in = in[:len(in)-1]
	}
	return n, in
}

// negInfOf returns a one-element tensor of -inf in type dt.
func negInfOf(dt tensor.DataType, x *tensor.Tensor) *tensor.Tensor {
	switch dt {
	case tensor.Float:
		d, _ := tensor.Data[float32](x)
		d[0] = float32(math.Inf(-1))
	case tensor.Double:
		d, _ := tensor.Data[float64](x)
		d[0] = math.Inf(-1)
	case tensor.Float16:
		d, _ := tensor.Data[float16.Float16](x)
		d[0] = float16.Inf(-1)
	case tensor.BFloat16:
		d, _ := tensor.Data[tensor.BF16](x)
		d[0] = tensor.BF16FromFloat32(float32(math.Inf(-1)))
	}
	return x
}
