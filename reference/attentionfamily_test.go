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
	"RotaryEmbedding": randRotaryEmbedding,
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
