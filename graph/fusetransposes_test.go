package graph_test

import (
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/tensor"
)

// attentionModel is a transformer's self-attention spelled out as
// exporters write it: x [batch, seq, heads*d] projected to Q, K and V,
// each reshaped to [batch, seq, heads, d] and transposed to [batch, heads,
// seq, d] (K then to [batch, heads, d, seq], by a second Transpose or, when
// oneK, by one), the scores scaled and normalised, the heads' results
// transposed back and reshaped to [batch, seq, heads*d].
func attentionModel(r *rand.Rand, dt tensor.DataType, batch, seq, heads, d int, oneK bool) *builder.Builder {
	b := builder.New(17)
	e := heads * d
	x := b.Input("x", dt, batch, seq, e)
	split := b.Constant("split", tensor.MustFromSlice([]int64{int64(batch), int64(seq), int64(heads), int64(d)}, 4))
	proj := func(name string) builder.Value {
		return b.Op("Reshape", b.Op("MatMul", x, b.Constant("w"+name, randTensor(r, dt, e, e))), split)
	}
	q := b.Op("Transpose", proj("q"), builder.Ints("perm", 0, 2, 1, 3), builder.Name("tq"))
	var k builder.Value
	if oneK {
		k = b.Op("Transpose", proj("k"), builder.Ints("perm", 0, 2, 3, 1), builder.Name("tk"))
	} else {
		k = b.Op("Transpose", b.Op("Transpose", proj("k"), builder.Ints("perm", 0, 2, 1, 3), builder.Name("tk1")),
			builder.Ints("perm", 0, 1, 3, 2), builder.Name("tk2"))
	}
	v := b.Op("Transpose", proj("v"), builder.Ints("perm", 0, 2, 1, 3), builder.Name("tv"))
	s := b.Op("Div", b.Op("MatMul", q, k, builder.Name("scores")), b.Constant("scale", scalarOf(dt, 8)))
	o := b.Op("MatMul", b.Op("Softmax", s, builder.Int("axis", -1)), v, builder.Name("values"))
	o = b.Op("Transpose", o, builder.Ints("perm", 0, 2, 1, 3), builder.Name("to"))
	b.Output("y", b.Op("Reshape", o, b.Constant("join", tensor.MustFromSlice([]int64{int64(batch), int64(seq), int64(e)}, 3))))
	return b
}

// The Transposes of Q, V and the heads' results fold into the attention's
// MatMuls (K's, which would be read transposed, do not): the same bits as
// the nodes run one by one, at 1 and 2 threads, in float and double, and
// the reference engine's run unchanged.
func TestFoldedTransposesSameBits(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 33))
	for _, dt := range []tensor.DataType{tensor.Float, tensor.Double} {
		for _, c := range []struct{ batch, seq, heads, d int }{{1, 128, 4, 64}, {2, 13, 3, 5}, {1, 1, 2, 8}} {
			for _, oneK := range []bool{false, true} {
				fused, plain := loadBoth(t, attentionModel(r, dt, c.batch, c.seq, c.heads, c.d, oneK))
				if fused.Fusions() != 3 || plain.Fusions() != 0 {
					t.Fatalf("%v %+v: %d fusions (want 3: Q's, V's and the result's Transposes), %d with NoFuse", dt, c, fused.Fusions(), plain.Fusions())
				}
				x := randTensor(r, dt, c.batch, c.seq, c.heads*c.d)
				for _, threads := range []int{1, 2} {
					o := &graph.RunOptions{Threads: threads, Engine: graph.EngineFast}
					if got, want := runY(t, fused, x, o), runY(t, plain, x, o); !got.Equal(want) {
						t.Fatalf("%v %+v one K transpose %v, %d threads: fused and unfused differ", dt, c, oneK, threads)
					}
				}
				ref := &graph.RunOptions{Engine: graph.EngineReference}
				if !runY(t, fused, x, ref).Equal(runY(t, plain, x, ref)) {
					t.Fatal("the reference engine's run changed with folding")
				}
			}
		}
	}
}

// A Transpose read by another node besides the MatMul, or whose output is
// a graph output, stays a node of its own.
func TestFoldedTransposesOnlySoleReaders(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 44))
	b := builder.New(17)
	x := b.Input("x", tensor.Float, 2, 3, 4, 5)
	q := b.Op("Transpose", x, builder.Ints("perm", 0, 2, 1, 3))
	b.Output("q", q)
	y := b.Op("MatMul", q, b.Constant("w", randTensor(r, tensor.Float, 5, 6)))
	b.Output("y", y)
	fused, _ := loadBoth(t, b)
	if fused.Fusions() != 0 {
		t.Fatalf("%d fusions, want none: the Transpose's output is also the graph's", fused.Fusions())
	}
}

// A Transpose folded before a MatMul whose input another node reads too (a
// transformer's residual stream: x read by the attention's first
// Transpose and by the residual Add after it) passes its input on shared:
// the value keeps its storage for that other reader, at 1 and 2 threads,
// with and without a pool (a folded BERT encoder read an empty tensor).
func TestFoldedTransposeSharedInput(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 55))
	b := builder.New(17)
	x := b.Input("x", tensor.Float, 2, 3, 4)
	h := b.Op("Sqrt", b.Op("Abs", x)) // computed: its step holds the storage
	q := b.Op("Transpose", h, builder.Ints("perm", 1, 0, 2), builder.Name("tq"))
	p := b.Op("MatMul", q, b.Constant("w", randTensor(r, tensor.Float, 4, 4)))
	o := b.Op("Transpose", p, builder.Ints("perm", 1, 0, 2), builder.Name("to"))
	b.Output("y", b.Op("Add", h, o))
	fused, plain := loadBoth(t, b)
	if fused.Fusions() != 2 {
		t.Fatalf("%d fusions, want 2 (the Transposes before and after the MatMul)", fused.Fusions())
	}
	xv := randTensor(r, tensor.Float, 2, 3, 4)
	pool := graph.NewPool()
	for _, o := range []*graph.RunOptions{{Threads: 1}, {Threads: 2}, {Threads: 1, Pool: pool}, {Threads: 2, Pool: pool}, {Threads: 1, Pool: pool}} {
		o.Engine = graph.EngineFast
		if got, want := runY(t, fused, xv, o), runY(t, plain, xv, o); !got.Equal(want) {
			t.Fatalf("%d threads, pool %v: fused and unfused differ", o.Threads, o.Pool != nil)
		}
	}
}
