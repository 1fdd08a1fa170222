package graph_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

func graphAttr(name string, g *pb.GraphProto) *pb.AttributeProto {
	return &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_GRAPH.Enum(), G: g}
}

func scalarInfo(name string, dt tensor.DataType) *pb.ValueInfoProto { return info(name, dt) }

// untyped declares a value without a shape (a body's outputs whose shape
// the test does not care for).
func untyped(name string, dt tensor.DataType) *pb.ValueInfoProto {
	return &pb.ValueInfoProto{Name: proto.String(name), Type: &pb.TypeProto{Value: &pb.TypeProto_TensorType{
		TensorType: &pb.TypeProto_Tensor{ElemType: proto.Int32(int32(dt))}}}}
}

// nestedLoopIf is a Loop over M iterations carrying acc[3]; its body
// holds an If reading the iteration number i (the body's input), k (a
// model input) and x (a model input, two scopes up): acc + x while i < k,
// acc - x after. The body also scans acc out.
func nestedLoopIf() modelSpec { return nestedLoopIfOf(3) }

func nestedLoopIfOf(n int64) modelSpec {
	then := &pb.GraphProto{Name: proto.String("then"),
		Node:   []*pb.NodeProto{node("add", "Add", []string{"acc_in", "x"}, []string{"t_out"})},
		Output: []*pb.ValueInfoProto{untyped("t_out", tensor.Float)}}
	els := &pb.GraphProto{Name: proto.String("else"),
		Node:   []*pb.NodeProto{node("sub", "Sub", []string{"acc_in", "x"}, []string{"e_out"})},
		Output: []*pb.ValueInfoProto{untyped("e_out", tensor.Float)}}
	body := &pb.GraphProto{Name: proto.String("body"),
		Node: []*pb.NodeProto{
			node("less", "Less", []string{"i", "k"}, []string{"early"}),
			node("if", "If", []string{"early"}, []string{"acc_out"}, graphAttr("then_branch", then), graphAttr("else_branch", els)),
			node("keep", "Identity", []string{"cond_in"}, []string{"cond_out"}),
			node("scan", "Identity", []string{"acc_out"}, []string{"scan_out"}),
		},
		Input:  []*pb.ValueInfoProto{scalarInfo("i", tensor.Int64), scalarInfo("cond_in", tensor.Bool), untyped("acc_in", tensor.Float)},
		Output: []*pb.ValueInfoProto{untyped("cond_out", tensor.Bool), untyped("acc_out", tensor.Float), untyped("scan_out", tensor.Float)}}
	return modelSpec{
		opset: 16,
		nodes: []*pb.NodeProto{
			node("loop", "Loop", []string{"M", "", "acc0"}, []string{"acc", "history"}, graphAttr("body", body)),
		},
		inputs:  []*pb.ValueInfoProto{scalarInfo("M", tensor.Int64), scalarInfo("k", tensor.Int64), info("x", tensor.Float, n), info("acc0", tensor.Float, n)},
		outputs: []*pb.ValueInfoProto{untyped("acc", tensor.Float), untyped("history", tensor.Float)},
	}
}

func TestNestedIfInLoopReadsOuterValues(t *testing.T) {
	m := nestedLoopIf().load(t)
	x := tensor.MustFromSlice([]float32{1, 2, 3}, 3)
	acc0 := tensor.MustFromSlice([]float32{10, 20, 30}, 3)
	in := map[string]tensor.Value{"M": tensor.Scalar(int64(5)), "k": tensor.Scalar(int64(3)), "x": x, "acc0": acc0}
	// i = 0, 1, 2 add x; i = 3, 4 subtract it.
	want := tensor.MustFromSlice([]float32{11, 22, 33}, 3)
	wantHistory := tensor.MustFromSlice([]float32{11, 22, 33, 12, 24, 36, 13, 26, 39, 12, 24, 36, 11, 22, 33}, 5, 3)
	pool := graph.NewPool()
	for _, o := range []*graph.RunOptions{nil, {Engine: graph.EngineReference}, {Pool: pool}, {Pool: pool}, {MaxRunBytes: 1 << 10}} {
		for range 2 { // the second run reuses the first's state
			out, err := m.Run(context.Background(), in, o)
			if err != nil {
				t.Fatalf("%+v: %v", o, err)
			}
			wantTensor(t, out.Map()["acc"], want)
			wantTensor(t, out.Map()["history"], wantHistory)
			if o != nil && o.Pool != nil {
				if err := pool.Release(out.Map()["acc"], out.Map()["history"]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	wantTensor(t, x, tensor.MustFromSlice([]float32{1, 2, 3}, 3))
	wantTensor(t, acc0, tensor.MustFromSlice([]float32{10, 20, 30}, 3))

	// No iteration: the carried value comes back, the scan output is empty.
	out, err := m.Run(context.Background(), map[string]tensor.Value{"M": tensor.Scalar(int64(0)), "k": tensor.Scalar(int64(3)), "x": x, "acc0": acc0}, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantTensor(t, out.Map()["acc"], acc0)
	if h := out.Map()["history"].(*tensor.Tensor); h.Len() != 0 || h.DataType() != tensor.Float {
		t.Errorf("history of no iteration = %s", h.Describe())
	}
}

func TestMemoryPlanCoversBodies(t *testing.T) {
	m := nestedLoopIfOf(1000).load(t)
	in := map[string]tensor.Value{"M": tensor.Scalar(int64(1000)), "k": tensor.Scalar(int64(3)),
		"x": tensor.MustNew(tensor.Float, 1000), "acc0": tensor.MustNew(tensor.Float, 1000)}
	// 1000 iterations of 4,000 bytes scanned out: the history alone takes
	// 4 MB, the cap of 1 MB stops the run.
	_, err := m.Run(context.Background(), in, &graph.RunOptions{MaxRunBytes: 1 << 20})
	if !errors.Is(err, graph.ErrLimit) {
		t.Fatalf("err = %v, want a limit", err)
	}
	if _, err := m.Run(context.Background(), in, &graph.RunOptions{MaxRunBytes: 16 << 20}); err != nil {
		t.Fatal(err)
	}
}

// foreverLoop is a Loop whose condition never turns false.
func foreverLoop() modelSpec {
	body := &pb.GraphProto{Name: proto.String("body"),
		Node: []*pb.NodeProto{
			node("keep", "Identity", []string{"cond_in"}, []string{"cond_out"}),
			node("add", "Add", []string{"v_in", "one"}, []string{"v_out"}),
		},
		Input:  []*pb.ValueInfoProto{scalarInfo("i", tensor.Int64), scalarInfo("cond_in", tensor.Bool), untyped("v_in", tensor.Float)},
		Output: []*pb.ValueInfoProto{untyped("cond_out", tensor.Bool), untyped("v_out", tensor.Float)}}
	return modelSpec{
		opset:   13,
		nodes:   []*pb.NodeProto{node("loop", "Loop", []string{"", "cond", "v0"}, []string{"v"}, graphAttr("body", body))},
		inits:   []*pb.TensorProto{floats("one", nil, 1)},
		inputs:  []*pb.ValueInfoProto{scalarInfo("cond", tensor.Bool), info("v0", tensor.Float)},
		outputs: []*pb.ValueInfoProto{untyped("v", tensor.Float)},
	}
}

func TestLoopThatNeverEndsStopsAtDeadline(t *testing.T) {
	m := foreverLoop().load(t)
	in := map[string]tensor.Value{"cond": tensor.Scalar(true), "v0": tensor.Scalar(float32(0))}
	for _, e := range []graph.Engine{graph.EngineFast, graph.EngineReference} {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		start := time.Now()
		_, err := m.Run(ctx, in, &graph.RunOptions{Engine: e})
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("%v: err = %v, want the deadline", e, err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%v: stopped after %v", e, d)
		}
	}
	// A false condition runs no iteration.
	out, err := m.Run(context.Background(), map[string]tensor.Value{"cond": tensor.Scalar(false), "v0": tensor.Scalar(float32(7))}, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantTensor(t, out.Map()["v"], tensor.Scalar(float32(7)))
}

// scanSum is Scan 9 over x[T, 2] summing the rows into a state and
// scanning the running sums out, in reverse when reverse is set.
func scanSum(reverse bool) modelSpec {
	body := &pb.GraphProto{Name: proto.String("body"),
		Node: []*pb.NodeProto{
			node("add", "Add", []string{"s_in", "row"}, []string{"s_out"}),
			node("id", "Identity", []string{"s_out"}, []string{"y"}),
		},
		Input:  []*pb.ValueInfoProto{untyped("s_in", tensor.Float), untyped("row", tensor.Float)},
		Output: []*pb.ValueInfoProto{untyped("s_out", tensor.Float), untyped("y", tensor.Float)}}
	attrs := []*pb.AttributeProto{graphAttr("body", body), intAttr("num_scan_inputs", 1)}
	if reverse {
		attrs = append(attrs, intsAttr("scan_input_directions", 1), intsAttr("scan_output_axes", -1))
	}
	return modelSpec{
		opset:   16,
		nodes:   []*pb.NodeProto{node("scan", "Scan", []string{"s0", "x"}, []string{"s", "ys"}, attrs...)},
		inputs:  []*pb.ValueInfoProto{untyped("s0", tensor.Float), untyped("x", tensor.Float)},
		outputs: []*pb.ValueInfoProto{untyped("s", tensor.Float), untyped("ys", tensor.Float)},
	}
}

func TestScanAxesAndDirections(t *testing.T) {
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 3, 2)
	s0 := tensor.MustFromSlice([]float32{0, 0}, 2)
	for _, reverse := range []bool{false, true} {
		m := scanSum(reverse).load(t)
		for _, e := range []graph.Engine{graph.EngineFast, graph.EngineReference} {
			out, err := m.Run(context.Background(), map[string]tensor.Value{"s0": s0, "x": x}, &graph.RunOptions{Engine: e})
			if err != nil {
				t.Fatal(err)
			}
			wantTensor(t, out.Map()["s"], tensor.MustFromSlice([]float32{9, 12}, 2))
			want := tensor.MustFromSlice([]float32{1, 2, 4, 6, 9, 12}, 3, 2)
			if reverse { // rows 5 6, then 3 4, then 1 2; stacked on the last axis
				want = tensor.MustFromSlice([]float32{5, 8, 9, 6, 10, 12}, 2, 3)
			}
			wantTensor(t, out.Map()["ys"], want)
		}
	}
}

func TestScanOverManyStepsRefusedByCap(t *testing.T) {
	m := scanSum(false).load(t)
	x := tensor.MustNew(tensor.Float, 1<<20, 2) // a million steps, the caller's
	in := map[string]tensor.Value{"s0": tensor.MustNew(tensor.Float, 2), "x": x}
	start := time.Now()
	_, err := m.Run(context.Background(), in, &graph.RunOptions{MaxRunBytes: 1 << 20})
	if !errors.Is(err, graph.ErrLimit) {
		t.Fatalf("err = %v, want a limit", err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("refused after %v", d)
	}
}

// nestedIfs returns a model of depth If nodes, each the then_branch of the
// one before.
func nestedIfs(depth int) *pb.ModelProto {
	leaf := &pb.GraphProto{Name: proto.String("leaf"),
		Node:   []*pb.NodeProto{node("id", "Identity", []string{"x"}, []string{"y0"})},
		Output: []*pb.ValueInfoProto{untyped("y0", tensor.Float)}}
	g := leaf
	for d := 1; d <= depth; d++ {
		out := "y" + strings.Repeat("_", 0) + itoa(d)
		g = &pb.GraphProto{Name: proto.String("level"),
			Node:   []*pb.NodeProto{node("if", "If", []string{"c"}, []string{out}, graphAttr("then_branch", g), graphAttr("else_branch", leafCopy(d)))},
			Output: []*pb.ValueInfoProto{untyped(out, tensor.Float)}}
	}
	spec := modelSpec{opset: 13, nodes: g.Node,
		inputs:  []*pb.ValueInfoProto{scalarInfo("c", tensor.Bool), info("x", tensor.Float, 2)},
		outputs: g.Output}
	return spec.proto()
}

func leafCopy(d int) *pb.GraphProto {
	return &pb.GraphProto{Name: proto.String("else"),
		Node:   []*pb.NodeProto{node("neg", "Neg", []string{"x"}, []string{"e" + itoa(d)})},
		Output: []*pb.ValueInfoProto{untyped("e"+itoa(d), tensor.Float)}}
}

func itoa(d int) string {
	if d == 0 {
		return "0"
	}
	s := ""
	for ; d > 0; d /= 10 {
		s = string(rune('0'+d%10)) + s
	}
	return s
}

func TestNestingDepth(t *testing.T) {
	m, err := graph.FromProto(nestedIfs(20), "")
	if err != nil {
		t.Fatal(err)
	}
	x := tensor.MustFromSlice([]float32{1, -2}, 2)
	for _, c := range []bool{true, false} {
		out, err := m.Run(context.Background(), map[string]tensor.Value{"c": tensor.Scalar(c), "x": x}, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := x
		if !c {
			want = tensor.MustFromSlice([]float32{-1, 2}, 2)
		}
		wantTensor(t, out.Map()["y20"], want)
	}

	deep := nestedIfs(10000)
	if _, err := graph.FromProto(deep, ""); !errors.Is(err, graph.ErrLimit) || !strings.Contains(err.Error(), "nest deeper") || len(err.Error()) > 200 {
		t.Errorf("FromProto of 10,000 levels: %v", err)
	}
	b, err := onnx.EncodeModel(deep)
	if err != nil {
		t.Skipf("the encoder refuses 10,000 levels: %v", err)
	}
	if _, err := graph.LoadBytes(b, ""); err == nil {
		t.Error("LoadBytes of 10,000 levels of subgraphs succeeded")
	}
}

// A node whose branch reads a value by name runs after that value's
// producer, even when the file lists it first, and the value lives until
// the branch has read it.
func TestSubgraphReadsOrderTheNodes(t *testing.T) {
	then := &pb.GraphProto{Name: proto.String("then"),
		Node:   []*pb.NodeProto{node("add", "Add", []string{"z", "z"}, []string{"t"})},
		Output: []*pb.ValueInfoProto{untyped("t", tensor.Float)}}
	els := &pb.GraphProto{Name: proto.String("else"),
		Output: []*pb.ValueInfoProto{untyped("z", tensor.Float)}}
	spec := modelSpec{opset: 13,
		nodes: []*pb.NodeProto{
			node("if", "If", []string{"c"}, []string{"y"}, graphAttr("then_branch", then), graphAttr("else_branch", els)),
			node("neg", "Neg", []string{"x"}, []string{"z"}),
		},
		inputs:  []*pb.ValueInfoProto{scalarInfo("c", tensor.Bool), info("x", tensor.Float, 2)},
		outputs: []*pb.ValueInfoProto{untyped("y", tensor.Float)}}
	m := spec.load(t)
	x := tensor.MustFromSlice([]float32{1, -2}, 2)
	for _, e := range []graph.Engine{graph.EngineFast, graph.EngineReference} {
		for c, want := range map[bool]*tensor.Tensor{true: tensor.MustFromSlice([]float32{-2, 4}, 2), false: tensor.MustFromSlice([]float32{-1, 2}, 2)} {
			out, err := m.Run(context.Background(), map[string]tensor.Value{"c": tensor.Scalar(c), "x": x}, &graph.RunOptions{Engine: e, Pool: graph.NewPool()})
			if err != nil {
				t.Fatal(err)
			}
			wantTensor(t, out.Map()["y"], want)
		}
	}
	// A name no scope defines is refused at load.
	bad := spec
	bad.nodes = []*pb.NodeProto{bad.nodes[0]}
	if _, err := graph.FromProto(bad.proto(), ""); err == nil || !strings.Contains(err.Error(), `"z"`) {
		t.Errorf("a branch reading an undefined name: %v", err)
	}
}

// BenchmarkIf is the cost of an If whose branch is one Identity.
func BenchmarkIf(b *testing.B) {
	branch := func(name string) *pb.GraphProto {
		return &pb.GraphProto{Name: proto.String(name),
			Node:   []*pb.NodeProto{node("id", "Identity", []string{"x"}, []string{name + "_y"})},
			Output: []*pb.ValueInfoProto{untyped(name+"_y", tensor.Float)}}
	}
	spec := modelSpec{opset: 13,
		nodes:   []*pb.NodeProto{node("if", "If", []string{"c"}, []string{"y"}, graphAttr("then_branch", branch("then")), graphAttr("else_branch", branch("else")))},
		inputs:  []*pb.ValueInfoProto{scalarInfo("c", tensor.Bool), info("x", tensor.Float, 2)},
		outputs: []*pb.ValueInfoProto{untyped("y", tensor.Float)}}
	m, err := graph.FromProto(spec.proto(), "")
	if err != nil {
		b.Fatal(err)
	}
	in := map[string]tensor.Value{"c": tensor.Scalar(true), "x": tensor.MustNew(tensor.Float, 2)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Run(context.Background(), in, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoopIteration is the cost of one iteration of a Loop whose
// body is an Identity of the condition and an Add of two scalars.
func BenchmarkLoopIteration(b *testing.B) {
	spec := foreverLoop()
	spec.nodes[0].Input[0] = "M"
	spec.inputs = append(spec.inputs, scalarInfo("M", tensor.Int64))
	m, err := graph.FromProto(spec.proto(), "")
	if err != nil {
		b.Fatal(err)
	}
	const iterations = 1000
	in := map[string]tensor.Value{"M": tensor.Scalar(int64(iterations)), "cond": tensor.Scalar(true), "v0": tensor.Scalar(float32(0))}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Run(context.Background(), in, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*iterations), "ns/iteration")
}

// Runs of one model with subgraphs at once, sharing a Pool, keep to
// their own values.
func TestControlFlowConcurrentRuns(t *testing.T) {
	m := nestedLoopIf().load(t)
	pool := graph.NewPool()
	errs := make(chan error, 4)
	for g := range 4 {
		go func() {
			x := tensor.MustFromSlice([]float32{float32(g), 1, 2}, 3)
			acc0 := tensor.MustFromSlice([]float32{0, 0, 0}, 3)
			in := map[string]tensor.Value{"M": tensor.Scalar(int64(4)), "k": tensor.Scalar(int64(3)), "x": x, "acc0": acc0}
			for range 50 {
				out, err := m.Run(context.Background(), in, &graph.RunOptions{Pool: pool})
				if err != nil {
					errs <- err
					return
				}
				// 3 additions and 1 subtraction: 2x.
				if got := out.Map()["acc"].(*tensor.Tensor); !got.Equal(tensor.MustFromSlice([]float32{2 * float32(g), 2, 4}, 3)) {
					errs <- errors.New("run " + itoa(g) + " got " + got.String())
					return
				}
				if err := pool.Release(out.Map()["acc"], out.Map()["history"]); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// countingLoop is a Loop of M iterations whose body adds the iteration
// number to a carried sum and scans out the iteration number itself (an
// Identity of the body's input i) and whether the condition held.
func countingLoop() modelSpec {
	body := &pb.GraphProto{Name: proto.String("body"),
		Node: []*pb.NodeProto{
			node("keep", "Identity", []string{"cond_in"}, []string{"cond_out"}),
			node("add", "Add", []string{"sum_in", "i"}, []string{"sum_out"}),
			node("seen", "Identity", []string{"i"}, []string{"i_out"}),
			node("held", "Identity", []string{"cond_in"}, []string{"held_out"}),
		},
		Input: []*pb.ValueInfoProto{scalarInfo("i", tensor.Int64), scalarInfo("cond_in", tensor.Bool), untyped("sum_in", tensor.Int64)},
		Output: []*pb.ValueInfoProto{untyped("cond_out", tensor.Bool), untyped("sum_out", tensor.Int64),
			untyped("i_out", tensor.Int64), untyped("held_out", tensor.Bool)}}
	return modelSpec{
		opset:   13,
		nodes:   []*pb.NodeProto{node("loop", "Loop", []string{"M", "", "sum0"}, []string{"sum", "seen", "held"}, graphAttr("body", body))},
		inputs:  []*pb.ValueInfoProto{scalarInfo("M", tensor.Int64), info("sum0", tensor.Int64)},
		outputs: []*pb.ValueInfoProto{untyped("sum", tensor.Int64), untyped("seen", tensor.Int64), untyped("held", tensor.Bool)},
	}
}

// The iteration number and the condition the body sees are right at every
// iteration, also when the body keeps them (scans them out): the loop
// reuses its scalars only while nothing it keeps holds them.
func TestLoopIterationNumbersKept(t *testing.T) {
	m := countingLoop().load(t)
	const n = 6
	in := map[string]tensor.Value{"M": tensor.Scalar(int64(n)), "sum0": tensor.Scalar(int64(100))}
	for _, o := range []*graph.RunOptions{nil, {Engine: graph.EngineReference}, {Pool: graph.NewPool()}} {
		out, err := m.Run(context.Background(), in, o)
		if err != nil {
			t.Fatal(err)
		}
		wantTensor(t, out.Map()["sum"], tensor.Scalar(int64(100+0+1+2+3+4+5)))
		wantTensor(t, out.Map()["seen"], tensor.MustFromSlice([]int64{0, 1, 2, 3, 4, 5}, n))
		wantTensor(t, out.Map()["held"], tensor.MustFromSlice([]bool{true, true, true, true, true, true}, n))
	}
}

// A body that keeps neither scalar: the sum sees each iteration number.
func TestLoopIterationNumberCounts(t *testing.T) {
	spec := countingLoop()
	body := spec.nodes[0].Attribute[0].G
	body.Node = body.Node[:2]
	body.Output = body.Output[:2]
	spec.nodes[0].Output = spec.nodes[0].Output[:1]
	spec.outputs = spec.outputs[:1]
	m := spec.load(t)
	for _, e := range []graph.Engine{graph.EngineFast, graph.EngineReference} {
		out, err := m.Run(context.Background(), map[string]tensor.Value{"M": tensor.Scalar(int64(1000)), "sum0": tensor.Scalar(int64(0))}, &graph.RunOptions{Engine: e})
		if err != nil {
			t.Fatal(err)
		}
		wantTensor(t, out.Map()["sum"], tensor.Scalar(int64(999*1000/2)))
	}
}

// A Loop of a million iterations runs in a constant heap: under a cap of
// 4 KiB on the run's live bytes (so nothing of the iterations piles up in
// the run's accounting), allocating a few small objects per iteration
// (the body's new values, never a growing list), and holding after the
// run no more than before it.
func TestLoopMillionIterationsConstantHeap(t *testing.T) {
	iterations := int64(1_000_000)
	if testing.Short() || raceEnabled {
		iterations = 100_000
	}
	spec := foreverLoop()
	spec.nodes[0].Input[0] = "M"
	spec.inputs = append(spec.inputs, scalarInfo("M", tensor.Int64))
	m := spec.load(t)
	in := map[string]tensor.Value{"M": tensor.Scalar(iterations), "cond": tensor.Scalar(true), "v0": tensor.Scalar(float32(0))}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	out, err := m.Run(context.Background(), in, &graph.RunOptions{MaxRunBytes: 4 << 10})
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	wantTensor(t, out.Map()["v"], tensor.Scalar(float32(iterations)))
	if perIteration := float64(after.Mallocs-before.Mallocs) / float64(iterations); perIteration > 8 {
		t.Errorf("%.1f allocations per iteration", perIteration)
	}
	out = graph.Result{}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 1<<20 {
		t.Errorf("the heap grew by %d bytes over %d iterations", grew, iterations)
	}
}

// TestScanBodyReturnsItsInputs holds Scan to the reference engine when the
// body hands back what it was given (a step's slice as the state, the
// state before as a scan output, a state passed through) and what it made
// twice: the slices and the storage Scan gives back between steps
// (Subgraph.Done) must never be a value still read. Pooled runs, twice.
func TestScanBodyReturnsItsInputs(t *testing.T) {
	bodies := map[string][]*pb.NodeProto{
		"slice as state": {
			node("a", "Identity", []string{"row"}, []string{"s1_out"}),
			node("b", "Add", []string{"s2_in", "s1_in"}, []string{"s2_out"}),
			node("c", "Add", []string{"s1_in", "row"}, []string{"y1"}),
			node("d", "Identity", []string{"s2_in"}, []string{"y2"}),
		},
		"state before as output": {
			node("a", "Add", []string{"s1_in", "row"}, []string{"s1_out"}),
			node("b", "Mul", []string{"s2_in", "s1_out"}, []string{"s2_out"}),
			node("c", "Identity", []string{"s1_in"}, []string{"y1"}),
			node("d", "Identity", []string{"s2_out"}, []string{"y2"}),
		},
		"passed through": {
			node("a", "Identity", []string{"s1_in"}, []string{"s1_out"}),
			node("b", "Add", []string{"s2_in", "row"}, []string{"s2_out"}),
			node("c", "Identity", []string{"s2_out"}, []string{"y1"}),
			node("d", "Identity", []string{"s2_out"}, []string{"y2"}),
		},
		"swapped": {
			node("a", "Identity", []string{"s2_in"}, []string{"s1_out"}),
			node("b", "Add", []string{"s1_in", "row"}, []string{"s2_out"}),
			node("c", "Neg", []string{"s1_out"}, []string{"y1"}),
			node("d", "Identity", []string{"s1_in"}, []string{"y2"}),
		},
	}
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 5, 2)
	s1 := tensor.MustFromSlice([]float32{0.5, -1}, 2)
	s2 := tensor.MustFromSlice([]float32{2, 3}, 2)
	for name, nodes := range bodies {
		body := &pb.GraphProto{Name: proto.String("body"), Node: nodes,
			Input: []*pb.ValueInfoProto{untyped("s1_in", tensor.Float), untyped("s2_in", tensor.Float), untyped("row", tensor.Float)},
			Output: []*pb.ValueInfoProto{untyped("s1_out", tensor.Float), untyped("s2_out", tensor.Float),
				untyped("y1", tensor.Float), untyped("y2", tensor.Float)}}
		m := modelSpec{
			opset: 16,
			nodes: []*pb.NodeProto{node("scan", "Scan", []string{"s1", "s2", "x"}, []string{"f1", "f2", "ys1", "ys2"},
				graphAttr("body", body), intAttr("num_scan_inputs", 1))},
			inputs: []*pb.ValueInfoProto{untyped("s1", tensor.Float), untyped("s2", tensor.Float), untyped("x", tensor.Float)},
			outputs: []*pb.ValueInfoProto{untyped("f1", tensor.Float), untyped("f2", tensor.Float),
				untyped("ys1", tensor.Float), untyped("ys2", tensor.Float)},
		}.load(t)
		in := map[string]tensor.Value{"s1": s1, "s2": s2, "x": x}
		pooledRunsAgree(t, name, m, in)
	}
}

// TestLoopGivesBackOnlyWhatItDropped holds Loop to the reference engine
// when the body carries a value on unchanged, swaps its carried values or
// carries the one before: the storage Loop gives back between iterations
// (Subgraph.Done) must never be a value still carried. Pooled runs, twice.
func TestLoopGivesBackOnlyWhatItDropped(t *testing.T) {
	bodies := map[string][]*pb.NodeProto{
		"carried before": {
			node("a", "Add", []string{"a_in", "b_in"}, []string{"a_out"}),
			node("b", "Identity", []string{"a_in"}, []string{"b_out"}),
		},
		"swapped": {
			node("a", "Identity", []string{"b_in"}, []string{"a_out"}),
			node("b", "Add", []string{"a_in", "b_in"}, []string{"b_out"}),
		},
		"unchanged": {
			node("a", "Identity", []string{"a_in"}, []string{"a_out"}),
			node("b", "Mul", []string{"a_in", "b_in"}, []string{"b_out"}),
		},
	}
	for name, nodes := range bodies {
		nodes = append(nodes, node("c", "Identity", []string{"cond_in"}, []string{"cond_out"}))
		body := &pb.GraphProto{Name: proto.String("body"), Node: nodes,
			Input: []*pb.ValueInfoProto{scalarInfo("i", tensor.Int64), scalarInfo("cond_in", tensor.Bool),
				untyped("a_in", tensor.Float), untyped("b_in", tensor.Float)},
			Output: []*pb.ValueInfoProto{untyped("cond_out", tensor.Bool), untyped("a_out", tensor.Float), untyped("b_out", tensor.Float)}}
		m := modelSpec{
			opset:   13,
			nodes:   []*pb.NodeProto{node("loop", "Loop", []string{"M", "cond", "a0", "b0"}, []string{"a", "b"}, graphAttr("body", body))},
			inputs:  []*pb.ValueInfoProto{scalarInfo("M", tensor.Int64), scalarInfo("cond", tensor.Bool), untyped("a0", tensor.Float), untyped("b0", tensor.Float)},
			outputs: []*pb.ValueInfoProto{untyped("a", tensor.Float), untyped("b", tensor.Float)},
		}.load(t)
		in := map[string]tensor.Value{"M": tensor.Scalar(int64(6)), "cond": tensor.Scalar(true),
			"a0": tensor.MustFromSlice([]float32{1, 2, 3}, 3), "b0": tensor.MustFromSlice([]float32{0.5, -1, 2}, 3)}
		pooledRunsAgree(t, name, m, in)
	}
}

// pooledRunsAgree runs m on in twice with a pool, releasing the outputs
// between the runs, and checks each output's bits against the reference
// engine's.
func pooledRunsAgree(t *testing.T, name string, m *graph.Model, in map[string]tensor.Value) {
	t.Helper()
	want, err := m.Run(context.Background(), in, &graph.RunOptions{Engine: graph.EngineReference})
	if err != nil {
		t.Fatal(err)
	}
	pool := graph.NewPool()
	for run := 0; run < 2; run++ {
		got, err := m.Run(context.Background(), in, &graph.RunOptions{Pool: pool, Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range want.Map() {
			w := v.(*tensor.Tensor)
			g, _ := got.Map()[k].(*tensor.Tensor)
			if g == nil || !tensor.SameShape(g.Shape(), w.Shape()) || string(g.Bytes()) != string(w.Bytes()) {
				t.Errorf("%s, run %d: %s = %v, the reference %v", name, run, k, g, w)
			}
		}
		for _, v := range got.Map() {
			if err := pool.Release(v); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// A Loop copies each iteration's scan outputs to their stacks and gives
// back what the body returned and it reads no more: scan outputs that are
// a carried value of the iteration, of the iteration before, a value
// carried nowhere, the iteration number and the condition; with a count
// and no condition (stacks made once at their size) and with both (stacks
// doubled past 16 iterations, then cut to the count).
func TestLoopGivesBackScanOutputs(t *testing.T) {
	nodes := []*pb.NodeProto{
		node("c", "Identity", []string{"cond_in"}, []string{"cond_out"}),
		node("a", "Add", []string{"a_in", "b_in"}, []string{"a_out"}),
		node("t", "Mul", []string{"a_out", "b_in"}, []string{"t_out"}),
		node("b", "Identity", []string{"a_in"}, []string{"b_out"}),
		node("s1", "Identity", []string{"a_out"}, []string{"s_carried"}),
		node("s2", "Identity", []string{"a_in"}, []string{"s_before"}),
		node("s3", "Identity", []string{"i"}, []string{"s_i"}),
		node("s4", "Identity", []string{"cond_in"}, []string{"s_cond"}),
	}
	body := &pb.GraphProto{Name: proto.String("body"), Node: nodes,
		Input: []*pb.ValueInfoProto{scalarInfo("i", tensor.Int64), scalarInfo("cond_in", tensor.Bool),
			untyped("a_in", tensor.Float), untyped("b_in", tensor.Float)},
		Output: []*pb.ValueInfoProto{untyped("cond_out", tensor.Bool), untyped("a_out", tensor.Float), untyped("b_out", tensor.Float),
			untyped("s_carried", tensor.Float), untyped("s_before", tensor.Float), untyped("t_out", tensor.Float),
			untyped("s_i", tensor.Int64), untyped("s_cond", tensor.Bool)}}
	for _, cond := range []string{"", "cond"} {
		for _, trips := range []int64{0, 1, 16, 40} {
			m := modelSpec{
				opset: 13,
				nodes: []*pb.NodeProto{node("loop", "Loop", []string{"M", cond, "a0", "b0"},
					[]string{"a", "b", "ys1", "ys2", "ys3", "ys4", "ys5"}, graphAttr("body", body))},
				inputs: []*pb.ValueInfoProto{scalarInfo("M", tensor.Int64), scalarInfo("cond", tensor.Bool), untyped("a0", tensor.Float), untyped("b0", tensor.Float)},
				outputs: []*pb.ValueInfoProto{untyped("a", tensor.Float), untyped("b", tensor.Float), untyped("ys1", tensor.Float),
					untyped("ys2", tensor.Float), untyped("ys3", tensor.Float), untyped("ys4", tensor.Int64), untyped("ys5", tensor.Bool)},
			}.load(t)
			in := map[string]tensor.Value{"M": tensor.Scalar(trips), "cond": tensor.Scalar(true),
				"a0": tensor.MustFromSlice([]float32{1, 2, 3}, 3), "b0": tensor.MustFromSlice([]float32{0.5, -1, 2}, 3)}
			pooledRunsAgree(t, fmt.Sprintf("cond %q, %d iterations", cond, trips), m, in)
		}
	}
}
