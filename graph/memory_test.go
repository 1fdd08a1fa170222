package graph_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// transposeChain is n Transposes swapping the last two axes of a float
// input of shape [a, b, c]: the shapes alternate, the sizes do not.
func transposeChain(n int, a, b, c int64) modelSpec {
	s := modelSpec{
		inputs:  []*pb.ValueInfoProto{info("x", tensor.Float, a, b, c)},
		outputs: []*pb.ValueInfoProto{{Name: ptr(fmt.Sprintf("t%d", n))}},
	}
	prev := "x"
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("t%d", i)
		s.nodes = append(s.nodes, node(name, "Transpose", []string{prev}, []string{name}, intsAttr("perm", 0, 2, 1)))
		prev = name
	}
	return s
}

func ptr[T any](v T) *T { return &v }

// The 25.7 MB frame of the issue: 3 x 1080 x 1984 floats.
const frameA, frameB, frameC = 3, 1080, 1984
const frameBytes = frameA * frameB * frameC * 4

// 60 Transposes hold at most three tensors at once: the one read, the one
// written, and none of the earlier ones. Measured through the allocator: a
// Pool allocates new storage only when no released storage of the size is
// free, so what it allocated new is the most the run held at once.
func TestChainPeaksAtTwoTensors(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 25.7 MB tensors")
	}
	m := transposeChain(60, frameA, frameB, frameC).load(t)
	x := tensor.MustNew(tensor.Float, frameA, frameB, frameC)
	pool := graph.NewPool()
	out, err := m.Run(context.Background(), map[string]tensor.Value{"x": x}, &graph.RunOptions{Pool: pool})
	if err != nil {
		t.Fatal(err)
	}
	fresh := graph.PoolFreshBytes(pool)
	if fresh > 3*frameBytes {
		t.Errorf("the run allocated %d bytes new, %.1f tensors; want at most 3", fresh, float64(fresh)/frameBytes)
	}
	plan, err := m.MemoryPlan(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Peak != fresh {
		t.Errorf("the plan's peak is %d bytes, the run held %d", plan.Peak, fresh)
	}
	if plan.Peak != 2*frameBytes || len(plan.Steps) != 60 {
		t.Errorf("plan: peak %d over %d steps, want %d (two tensors) over 60", plan.Peak, len(plan.Steps), 2*frameBytes)
	}
	if err := pool.Release(out.Map()["t60"]); err != nil {
		t.Fatal(err)
	}
}

// The 4 GiB default caps what is live, not what a run allocates in all:
// 168 Transposes of 25.7 MB (4.3 GB in all) run under it.
func TestDefaultCapRunsLongChain(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 168 Transposes of 25.7 MB")
	}
	m := transposeChain(168, frameA, frameB, frameC).load(t)
	x := tensor.MustNew(tensor.Float, frameA, frameB, frameC)
	if _, err := m.Run(context.Background(), map[string]tensor.Value{"x": x}, &graph.RunOptions{Pool: graph.NewPool()}); err != nil {
		t.Fatal(err)
	}
}

// tileConcat: two Tiles of 4 KiB each, read by one Concat of 8 KiB, then a
// Reshape view of it. The peak is during the Concat: 16 KiB.
func tileConcat() modelSpec {
	return modelSpec{
		nodes: []*pb.NodeProto{
			node("a", "Tile", []string{"x", "reps"}, []string{"a"}),
			node("b", "Tile", []string{"x", "reps"}, []string{"b"}),
			node("cat", "Concat", []string{"a", "b"}, []string{"cat"}, intAttr("axis", 0)),
			node("flat", "Reshape", []string{"cat", "shape"}, []string{"flat"}),
		},
		inits:   []*pb.TensorProto{int64s("reps", []int64{2}, 4, 1), int64s("shape", []int64{1}, -1)},
		inputs:  []*pb.ValueInfoProto{info("x", tensor.Float, 1, 256)},
		outputs: []*pb.ValueInfoProto{{Name: ptr("flat")}},
	}
}

// The plan's peak is exactly the smallest cap that lets the run through,
// and a cap below it refuses the node at the peak before it allocates,
// naming the cap, the live bytes and what the node needs.
func TestPlanPeakIsTheCapThatFits(t *testing.T) {
	m := tileConcat().load(t)
	plan, err := m.MemoryPlan(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Peak != 16384 || plan.PeakStep != 2 || plan.Steps[2].Op != "Concat" {
		t.Fatalf("plan %+v: want the peak of 16384 bytes at the Concat", plan)
	}
	wantLive := []int64{4096, 8192, 16384, 8192}
	for i, s := range plan.Steps {
		if s.Live != wantLive[i] {
			t.Errorf("step %d (%s): live %d, want %d", i, s.Op, s.Live, wantLive[i])
		}
	}
	in := map[string]tensor.Value{"x": tensor.MustNew(tensor.Float, 1, 256)}
	var charged int64
	o := &graph.RunOptions{MaxRunBytes: plan.Peak}
	graph.SetChargeHook(o, func(n int64) error { charged += n; return nil })
	if _, err := m.Run(context.Background(), in, o); err != nil {
		t.Fatalf("a cap of the plan's peak: %v", err)
	}
	if charged != 4096+4096+8192 {
		t.Errorf("the charge hook saw %d bytes, want 16384", charged)
	}
	_, err = m.Run(context.Background(), in, &graph.RunOptions{MaxRunBytes: plan.Peak - 1})
	var ne *graph.NodeError
	if !errors.Is(err, ops.ErrLimit) || !errors.As(err, &ne) || ne.Node != "cat" {
		t.Fatalf("got %v, want the Concat refused", err)
	}
	for _, want := range []string{"cap is 16383 bytes", "8192 bytes are live", "needs 8192"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
}

// A Split into four asks for all four outputs before the cap refuses the
// node: the refusal comes before the fourth allocation, with what the node
// needs in all.
func TestCapCountsAllOutputsOfANode(t *testing.T) {
	s := modelSpec{
		opset: 18,
		nodes: []*pb.NodeProto{
			node("split", "Split", []string{"x"}, []string{"a", "b", "c", "d"}, intAttr("num_outputs", 4)),
		},
		inputs:  []*pb.ValueInfoProto{info("x", tensor.Float, 1024)},
		outputs: []*pb.ValueInfoProto{{Name: ptr("a")}, {Name: ptr("b")}, {Name: ptr("c")}, {Name: ptr("d")}},
	}
	m := s.load(t)
	o := &graph.RunOptions{MaxRunBytes: 3500}
	_, err := m.Run(context.Background(), map[string]tensor.Value{"x": tensor.MustNew(tensor.Float, 1024)}, o)
	// 4096 bytes of outputs and 32 of their shapes, the kernel's scratch.
	if !errors.Is(err, ops.ErrLimit) || !strings.Contains(err.Error(), "needs 4128") {
		t.Fatalf("got %v, want the split refused needing 4128 bytes", err)
	}
}

// A value is let go after its last reader; a value read by two nodes
// stays until the second; an output no node reads goes at once.
func TestValuesLiveUntilLastReader(t *testing.T) {
	s := modelSpec{
		opset: 18,
		nodes: []*pb.NodeProto{
			node("tile", "Tile", []string{"x", "reps"}, []string{"big"}),
			node("split", "Split", []string{"big"}, []string{"half", "unused"}, intAttr("num_outputs", 2)),
			node("again", "Tile", []string{"half", "one"}, []string{"copy"}),
			node("last", "Concat", []string{"copy", "big"}, []string{"y"}, intAttr("axis", 0)),
		},
		inits:   []*pb.TensorProto{int64s("reps", []int64{1}, 4), int64s("one", []int64{1}, 1)},
		inputs:  []*pb.ValueInfoProto{info("x", tensor.Float, 256)},
		outputs: []*pb.ValueInfoProto{{Name: ptr("y")}},
	}
	plan, err := s.load(t).MemoryPlan(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	// big 4096; split: +2048+2048, then "unused" goes; again: +2048, then
	// half goes; last: +6144, then copy and big go.
	want := []int64{4096, 8192, 8192, 12288}
	for i, st := range plan.Steps {
		if st.Live != want[i] {
			t.Errorf("step %d (%s): live %d, want %d", i, st.Node, st.Live, want[i])
		}
	}
	if plan.Peak != 12288 {
		t.Errorf("peak %d, want 12288", plan.Peak)
	}
}

func TestMemoryPlanInputs(t *testing.T) {
	s := tileConcat()
	s.inputs = []*pb.ValueInfoProto{{Name: ptr("x"), Type: &pb.TypeProto{Value: &pb.TypeProto_TensorType{TensorType: &pb.TypeProto_Tensor{
		ElemType: ptr(int32(tensor.Float)), Shape: &pb.TensorShapeProto{Dim: []*pb.TensorShapeProto_Dimension{
			{Value: &pb.TensorShapeProto_Dimension_DimParam{DimParam: "N"}}, {Value: &pb.TensorShapeProto_Dimension_DimValue{DimValue: 256}}}}}}}}}
	m := s.load(t)
	plan, err := m.MemoryPlan(context.Background(), map[string][]int{"x": {2, 256}}, nil)
	if err != nil || plan.Peak != 32768 {
		t.Fatalf("got %+v, %v; want a peak of 32768 for x of [2 256]", plan, err)
	}
	if _, err := m.MemoryPlan(context.Background(), nil, nil); err == nil || !strings.Contains(err.Error(), "not static") {
		t.Errorf("symbolic dimension without a shape: %v", err)
	}
	if _, err := m.MemoryPlan(context.Background(), map[string][]int{"y": {1}}, nil); err == nil || !strings.Contains(err.Error(), `no input "y"`) {
		t.Errorf("unknown input: %v", err)
	}
	if _, err := (*graph.Model)(nil).MemoryPlan(context.Background(), nil, nil); err == nil {
		t.Error("nil model: no error")
	}
	// The zero-filled inputs are held to the caps before they are made
	// [2^40 256] of float under the defaults, under a cap on
	// one tensor, and under a run's cap.
	// 2^40 and 2^62 as variables: the literals do not compile with 32-bit
	// ints, where those two cases are left out.
	pow2 := func(n uint) int { return int(uint64(1) << n) }
	for _, c := range []struct {
		shape []int
		o     *graph.RunOptions
		want  string
	}{
		{[]int{pow2(40), 256}, nil, "limit of 2147483647 bytes on one tensor"},
		{[]int{pow2(62), 256}, nil, "limit of 2147483647 bytes on one tensor"},
		{[]int{4, 256}, &graph.RunOptions{MaxTensorBytes: 1000}, "limit of 1000 bytes on one tensor"},
		{[]int{4, 256}, &graph.RunOptions{MaxRunBytes: 1000}, "the run's limit of 1000 bytes"},
	} {
		if c.shape[0] <= 0 {
			continue // 32-bit ints
		}
		_, err := m.MemoryPlan(context.Background(), map[string][]int{"x": c.shape}, c.o)
		if !errors.Is(err, graph.ErrLimit) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("x of %v under %+v: %v; want an ErrLimit saying %q", c.shape, c.o, err, c.want)
		}
	}
	// No element at all, whatever the other dimensions.
	if _, err := m.MemoryPlan(context.Background(), map[string][]int{"x": {pow2(62), 0}}, nil); err != nil && errors.Is(err, graph.ErrLimit) {
		t.Errorf("x of [2^62 0]: %v", err)
	}
}

// A view keeps its storage alive after the value it views goes: the
// storage is counted once, and a Pool does not hand it to a later node.
func TestViewKeepsStorageAlive(t *testing.T) {
	s := modelSpec{
		nodes: []*pb.NodeProto{
			node("a", "Tile", []string{"x", "reps"}, []string{"a"}),
			node("view", "Reshape", []string{"a", "shape"}, []string{"v"}), // the last reader of a
			node("b", "Tile", []string{"y", "reps"}, []string{"b"}),        // as large as a
		},
		inits:   []*pb.TensorProto{int64s("reps", []int64{2}, 4, 1), int64s("shape", []int64{1}, -1)},
		inputs:  []*pb.ValueInfoProto{info("x", tensor.Float, 1, 256), info("y", tensor.Float, 1, 256)},
		outputs: []*pb.ValueInfoProto{{Name: ptr("v")}, {Name: ptr("b")}},
	}
	m := s.load(t)
	x, y := tensor.MustNew(tensor.Float, 1, 256), tensor.MustNew(tensor.Float, 1, 256)
	xv, _ := tensor.Data[float32](x)
	yv, _ := tensor.Data[float32](y)
	for i := range xv {
		xv[i], yv[i] = 1, 2
	}
	in := map[string]tensor.Value{"x": x, "y": y}
	pool := graph.NewPool()
	for range 3 {
		out, err := m.Run(context.Background(), in, &graph.RunOptions{Pool: pool})
		if err != nil {
			t.Fatal(err)
		}
		v, _ := tensor.Data[float32](out.Map()["v"].(*tensor.Tensor))
		for _, e := range v {
			if e != 1 {
				t.Fatal("the view's storage was handed to a later node")
			}
		}
		if err := pool.Release(out.Map()["v"], out.Map()["b"]); err != nil {
			t.Fatal(err)
		}
	}
	plan, err := m.MemoryPlan(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(plan.Steps[0].Live, plan.Steps[1].Live, plan.Steps[2].Live); got != "4096 4096 8192" {
		t.Errorf("live bytes after each step: %s, want 4096 4096 8192", got)
	}
}

// Without a Pool, a warm run recycles its large intermediates too: a chain
// of Transposes of 256 KB values allocates about its output a run, not one
// value a node; the outputs a run handed out are never recycled (they keep
// their values while later runs go on); and under a run cap the storage
// kept between runs is at most a quarter of the cap, so a cap below four
// values keeps none of them.
func TestWarmRunRecyclesLargeIntermediates(t *testing.T) {
	const a, b, c, n = 4, 128, 128, 12
	const valueBytes = a * b * c * 4
	m := transposeChain(n, a, b, c).load(t)
	rng := rand.New(rand.NewPCG(5, 6))
	perRun := func(o *graph.RunOptions) uint64 {
		in := map[string]tensor.Value{"x": randomInput(rng, a, b, c)}
		for range 2 {
			if _, err := m.Run(context.Background(), in, o); err != nil {
				t.Fatal(err)
			}
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		const runs = 10
		for range runs {
			if _, err := m.Run(context.Background(), in, o); err != nil {
				t.Fatal(err)
			}
		}
		runtime.ReadMemStats(&after)
		return (after.TotalAlloc - before.TotalAlloc) / runs
	}
	if got := perRun(nil); got > 2*valueBytes {
		t.Errorf("a warm run of %d Transposes allocates %d bytes; its output is %d", n, got, valueBytes)
	}
	if got := perRun(&graph.RunOptions{MaxRunBytes: 3 * valueBytes}); got < n/2*valueBytes {
		t.Errorf("under a cap of three values, a warm run allocates %d bytes: it kept more than a quarter of the cap", got)
	}

	var kept []map[string]tensor.Value
	var want []*tensor.Tensor
	for range 4 {
		in := map[string]tensor.Value{"x": randomInput(rng, a, b, c)}
		out, err := m.Run(context.Background(), in, nil)
		if err != nil {
			t.Fatal(err)
		}
		kept = append(kept, out.Map())
		want = append(want, out.Map()[fmt.Sprintf("t%d", n)].(*tensor.Tensor).Clone())
	}
	for i, out := range kept {
		if !out[fmt.Sprintf("t%d", n)].(*tensor.Tensor).Equal(want[i]) {
			t.Errorf("the output of run %d changed while later runs recycled storage", i)
		}
	}
}
