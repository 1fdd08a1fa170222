package graph_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/internal/nodeproto"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// identityChain is n Identity nodes in a chain on a float [4] input, listed
// in the file last first, so that sorting has work to do.
func identityChain(n int) modelSpec {
	s := modelSpec{
		inputs:  []*pb.ValueInfoProto{info("x", tensor.Float, 4)},
		outputs: []*pb.ValueInfoProto{{Name: ptr(fmt.Sprintf("v%d", n))}},
		nodes:   make([]*pb.NodeProto, n),
	}
	for i := 1; i <= n; i++ {
		s.nodes[n-i] = node("", "Identity", []string{fmt.Sprintf("v%d", i-1)}, []string{fmt.Sprintf("v%d", i)})
	}
	s.nodes[n-1].Input[0] = "x"
	return s
}

// independent is n Identity nodes that all read the input: all are ready
// at once, which made sorting quadratic.
func independent(n int) modelSpec {
	s := modelSpec{inputs: []*pb.ValueInfoProto{info("x", tensor.Float, 4)}}
	for i := range n {
		name := fmt.Sprintf("v%d", i)
		s.nodes = append(s.nodes, node("", "Identity", []string{"x"}, []string{name}))
	}
	s.outputs = []*pb.ValueInfoProto{{Name: ptr("v0")}}
	return s
}

// Loading 100k nodes that are all ready at once takes well under a second:
// the quadratic sort took about a minute. The bound is a hang detector with
// room for a loaded machine, not a speed goal (BenchmarkLoadIndependent1M
// measures that); the race detector's slowdown has no such room.
func TestLoadIsNotQuadratic(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("loads 100k nodes")
	}
	mp := independent(100_000).proto()
	start := time.Now()
	if _, err := graph.FromProto(mp, ""); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("100k independent nodes load in %v", d)
	}
}

// A sequence of 100k items passes through two Identity nodes in
// milliseconds: comparing every output item with every input item took
// about 10^10 steps. As above, a hang detector (BenchmarkSequence1M).
func TestSequenceRunIsNotQuadratic(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("runs a sequence of 100k items")
	}
	m := sequenceIdentity(t)
	in := map[string]tensor.Value{"s": itemSequence(100_000)}
	pool := graph.NewPool()
	start := time.Now()
	out, err := m.Run(context.Background(), in, &graph.RunOptions{Pool: pool})
	if err != nil {
		t.Fatal(err)
	}
	if err := pool.Release(out.Map()["b"]); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("a sequence of 100k items takes %v", d)
	}
}

func sequenceIdentity(t testing.TB) *graph.Model {
	s := modelSpec{
		opset: 16,
		nodes: []*pb.NodeProto{node("id", "Identity", []string{"s"}, []string{"a"}), node("id2", "Identity", []string{"a"}, []string{"b"})},
		inputs: []*pb.ValueInfoProto{{Name: ptr("s"), Type: &pb.TypeProto{Value: &pb.TypeProto_SequenceType{SequenceType: &pb.TypeProto_Sequence{
			ElemType: &pb.TypeProto{Value: &pb.TypeProto_TensorType{TensorType: &pb.TypeProto_Tensor{ElemType: ptr(int32(tensor.Float))}}}}}}}},
		outputs: []*pb.ValueInfoProto{{Name: ptr("b")}},
	}
	m, err := graph.FromProto(s.proto(), "")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func itemSequence(n int) *tensor.Sequence {
	seq := &tensor.Sequence{ElemType: tensor.Float, Items: make([]*tensor.Tensor, n)}
	for i := range seq.Items {
		seq.Items[i] = tensor.MustNew(tensor.Float, 1)
	}
	return seq
}

// BenchmarkLoadRunChain1M loads and runs a chain of a million Identity
// nodes listed last first.
func BenchmarkLoadRunChain1M(b *testing.B) {
	mp := identityChain(1_000_000).proto()
	in := map[string]tensor.Value{"x": tensor.MustNew(tensor.Float, 4)}
	for b.Loop() {
		m, err := graph.FromProto(mp, "")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := m.Run(context.Background(), in, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadIndependent1M loads a million nodes that are all ready at
// once.
func BenchmarkLoadIndependent1M(b *testing.B) {
	mp := independent(1_000_000).proto()
	for b.Loop() {
		if _, err := graph.FromProto(mp, ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSequence1M passes a sequence of a million items through two
// Identity nodes with a Pool.
func BenchmarkSequence1M(b *testing.B) {
	m := sequenceIdentity(b)
	in := map[string]tensor.Value{"s": itemSequence(1_000_000)}
	o := &graph.RunOptions{Pool: graph.NewPool()}
	for b.Loop() {
		out, err := m.Run(context.Background(), in, o)
		if err != nil {
			b.Fatal(err)
		}
		if err := o.Pool.Release(out.Map()["b"]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRunOverhead40 runs 40 Identity nodes on a [1,3,8,8] tensor with
// a Pool: what the runner costs per node, the kernels doing next to
// nothing.
func BenchmarkRunOverhead40(b *testing.B) {
	s := identityChain(40)
	s.inputs = []*pb.ValueInfoProto{info("x", tensor.Float, 1, 3, 8, 8)}
	m, err := graph.FromProto(s.proto(), "")
	if err != nil {
		b.Fatal(err)
	}
	in := map[string]tensor.Value{"x": tensor.MustNew(tensor.Float, 1, 3, 8, 8)}
	o := &graph.RunOptions{Pool: graph.NewPool()}
	b.ReportAllocs()
	for b.Loop() {
		out, err := m.Run(context.Background(), in, o)
		if err != nil {
			b.Fatal(err)
		}
		if err := o.Pool.Release(out.Map()["v40"]); err != nil {
			b.Fatal(err)
		}
	}
}

// The runner itself allocates nothing per node in a warm pooled run: 40
// Identity nodes run prepared (views in reused headers) and cost, per run,
// the output's header, the outputs' map and the pool's record of it.
func TestWarmRunAllocatesPerRunOnly(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts vary under the race detector")
	}
	s := identityChain(40)
	s.inputs = []*pb.ValueInfoProto{info("x", tensor.Float, 1, 3, 8, 8)}
	m := s.load(t)
	in := map[string]tensor.Value{"x": tensor.MustNew(tensor.Float, 1, 3, 8, 8)}
	o := &graph.RunOptions{Pool: graph.NewPool()}
	allocs := testing.AllocsPerRun(100, func() {
		out, err := m.Run(context.Background(), in, o)
		if err != nil {
			t.Fatal(err)
		}
		if err := o.Pool.Release(out.Map()["v40"]); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 8 {
		t.Errorf("a warm run of 40 Identity nodes allocates %v objects; want at most 8", allocs)
	}
}

// nodeproto.Sort runs each node as soon as its producers have, the first in
// the file first: a node that reads its own producer twice waits for it
// once.
func TestSortOrder(t *testing.T) {
	nodes := []*pb.NodeProto{
		node("", "Concat", []string{"b", "a", "b"}, []string{"c"}), // 0: after 2 and 3
		node("", "Identity", []string{"x"}, []string{"z"}),         // 1: ready
		node("", "Identity", []string{"a"}, []string{"b"}),         // 2: after 3
		node("", "Identity", []string{"x"}, []string{"a"}),         // 3: ready
		node("", "Identity", []string{"c"}, []string{"d"}),         // 4: after 0
		node("", "Identity", []string{"z"}, []string{"e"}),         // 5: after 1
	}
	producer := map[string]int{"c": 0, "z": 1, "b": 2, "a": 3, "d": 4, "e": 5}
	order, err := nodeproto.Sort(nodes, producer)
	if err != nil || fmt.Sprint(order) != "[1 3 2 0 4 5]" {
		t.Fatalf("got %v, %v; want [1 3 2 0 4 5]", order, err)
	}
}
