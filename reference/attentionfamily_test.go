package reference_test

import (
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// Random nodes of the attention family and the losses through both
// engines, as TestEnginesAgreeOnRandomValidNodes does for the others:
// RotaryEmbedding and the losses agree bit for bit; Attention within the
// bound that reference.Agree states.
var attentionGenerators = map[string]func(r *rand.Rand) (*ops.Node, []tensor.Value){
	"RotaryEmbedding":           randRotaryEmbedding,
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
