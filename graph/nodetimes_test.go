package graph_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/tensor"
)

// heavyConvThenNeg is x -> Conv "conv" (some 20 million multiply-adds) ->
// Relu "act" (fused into the Conv) -> Neg "neg" (one element's worth of
// work next to it: a Slice to one value first) -> y.
func heavyConvThenNeg(t *testing.T) (fused, plain *graph.Model, x *tensor.Tensor) {
	r := rand.New(rand.NewPCG(26, 24))
	b := builder.New(17)
	xv := b.Input("x", tensor.Float, 1, 16, 48, 48)
	w := b.Constant("w", randTensor(r, tensor.Float, 32, 16, 3, 3))
	c := b.Op("Conv", xv, w, builder.Ints("pads", 1, 1, 1, 1), builder.Name("conv"))
	a := b.Op("Relu", c, builder.Name("act"))
	one := b.Op("Slice", a, b.Constant("starts", tensor.MustFromSlice([]int64{0, 0, 0, 0}, 4)),
		b.Constant("ends", tensor.MustFromSlice([]int64{1, 1, 1, 1}, 4)), builder.Name("one"))
	b.Output("y", b.Op("Neg", one, builder.Name("neg")))
	fused, plain = loadBoth(t, b)
	return fused, plain, randTensor(r, tensor.Float, 1, 16, 48, 48)
}

// The timer puts each node's time on that node: the Conv's on the Conv
// (with the Relu it fused, named there), none on the nodes around it; it
// counts every run, from runs under way at once too.
func TestNodeTimesLandOnTheirNode(t *testing.T) {
	fused, plain, x := heavyConvThenNeg(t)
	for _, tc := range []struct {
		name  string
		m     *graph.Model
		nodes []string
		fused []string // of the conv
	}{
		{"fused", fused, []string{"conv", "one", "neg"}, []string{"Relu act"}},
		{"NoFuse", plain, []string{"conv", "act", "one", "neg"}, nil},
	} {
		times := &graph.NodeTimes{}
		const goroutines, runs = 2, 3
		var wg sync.WaitGroup
		start := time.Now()
		for range goroutines {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range runs {
					runY(t, tc.m, x, &graph.RunOptions{Threads: 1, Times: times})
				}
			}()
		}
		wg.Wait()
		wall := time.Since(start)
		if got := times.Runs(); got != goroutines*runs {
			t.Fatalf("%s: %d runs recorded, want %d", tc.name, got, goroutines*runs)
		}
		nodes := times.Nodes()
		var names []string
		var total time.Duration
		for _, n := range nodes {
			names = append(names, n.Node)
			total += n.Time
			if n.Runs != goroutines*runs || n.Time <= 0 {
				t.Errorf("%s: node %s: %d runs, %v: want %d runs, some time", tc.name, n.Node, n.Runs, n.Time, goroutines*runs)
			}
		}
		if !slices.Equal(names, tc.nodes) {
			t.Fatalf("%s: nodes %v, want %v", tc.name, names, tc.nodes)
		}
		conv := nodes[0]
		if conv.Op != "Conv" || !slices.Equal(conv.Fused, tc.fused) {
			t.Errorf("%s: first node %s fused %q, want a Conv fusing %q", tc.name, conv.Op, conv.Fused, tc.fused)
		}
		if want := "1x16x48x48 32x16x3x3 -> 1x32x48x48"; conv.Shapes != want {
			t.Errorf("%s: conv shapes %q, want %q", tc.name, conv.Shapes, want)
		}
		// The Conv does millions of times the Neg's work: only a timer
		// that put its time elsewhere would see the Neg take longer.
		if neg := nodes[len(nodes)-1]; neg.Time >= conv.Time {
			t.Errorf("%s: neg took %v, conv %v: the Conv's time is not on the Conv", tc.name, neg.Time, conv.Time)
		}
		// Runs under way at once each add their own wall time.
		if total > goroutines*wall {
			t.Errorf("%s: nodes took %v in all, more than %d x the %v the runs took", tc.name, total, goroutines, wall)
		}
	}
}

// A Loop's body counts in the Loop: the timer lists only the graph's own
// nodes. A run of another model starts the timer over.
func TestNodeTimesCountBodiesInTheirNode(t *testing.T) {
	m := nestedLoopIf().load(t)
	in := map[string]tensor.Value{"M": tensor.Scalar(int64(5)), "k": tensor.Scalar(int64(3)),
		"x": tensor.MustFromSlice([]float32{1, 2, 3}, 3), "acc0": tensor.MustFromSlice([]float32{10, 20, 30}, 3)}
	fused, _, x := heavyConvThenNeg(t)
	times := &graph.NodeTimes{}
	runY(t, fused, x, &graph.RunOptions{Times: times})
	for range 2 {
		if _, err := m.Run(context.Background(), in, &graph.RunOptions{Times: times}); err != nil {
			t.Fatal(err)
		}
	}
	nodes := times.Nodes()
	if len(nodes) != 1 || nodes[0].Node != "loop" || nodes[0].Runs != 2 || times.Runs() != 2 {
		t.Fatalf("nodes %+v after %d runs, want the loop alone, run twice", nodes, times.Runs())
	}
	times.Reset()
	if times.Nodes() != nil || times.Runs() != 0 {
		t.Fatalf("after Reset: %+v, %d runs", times.Nodes(), times.Runs())
	}
}

// Each kind of load-time fusion lists the absorbed nodes under the node
// that runs them: a Pad before its Conv, a residual Add and the Relu after
// it, an elementwise chain under its last node.
func TestNodeTimesNameWhatEachNodeFused(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 7))
	b := builder.New(17)
	x := b.Input("x", tensor.Float, 1, 8, 10, 10)
	padded := b.Op("Pad", x, b.Constant("pads", tensor.MustFromSlice([]int64{0, 0, 1, 1, 0, 0, 1, 1}, 8)), builder.Name("pad"))
	c := b.Op("Conv", padded, b.Constant("w", randTensor(r, tensor.Float, 8, 8, 3, 3)), builder.Name("conv"))
	sum := b.Op("Add", c, x, builder.Name("residual"))
	act := b.Op("Relu", sum, builder.Name("act"))
	flat := b.Op("Reshape", act, b.Constant("shape", tensor.MustFromSlice([]int64{8, 100}, 2)), builder.Name("flat"))
	three := b.Constant("three", tensor.Scalar(float32(3)))
	h := b.Op("Mul", b.Op("Tanh", flat, builder.Name("tanh")), three, builder.Name("times3"))
	b.Output("y", b.Op("Add", h, three, builder.Name("plus3")))
	fused, _ := loadBoth(t, b)
	xt := randTensor(r, tensor.Float, 1, 8, 10, 10)
	times := &graph.NodeTimes{}
	runY(t, fused, xt, &graph.RunOptions{Times: times})
	got := map[string][]string{}
	for _, n := range times.Nodes() {
		got[n.Node] = n.Fused
	}
	want := map[string][]string{
		"conv":  {"Pad pad", "Add residual", "Relu act"},
		"flat":  nil,
		"plus3": {"Tanh tanh", "Mul times3"},
	}
	if len(got) != len(want) {
		t.Fatalf("nodes %v, want %v", got, want)
	}
	for name, w := range want {
		if g, ok := got[name]; !ok || !slices.Equal(g, w) {
			t.Errorf("%s fused %q, want %q (all: %v)", name, g, w, got)
		}
	}
}
