package graph_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// kernelModel runs computing nodes (kernels, not prepared) whose values
// leave the run every way one can: an intermediate that is a graph output,
// a value Identity passes to an output, values SequenceConstruct keeps in
// its output, a node of two outputs (Split), and values read by several
// nodes.
func kernelModel() modelSpec {
	return modelSpec{
		nodes: []*pb.NodeProto{
			node("relu", "Relu", []string{"x"}, []string{"r"}),
			node("sig", "Sigmoid", []string{"r"}, []string{"s"}),
			node("add", "Add", []string{"s", "r"}, []string{"a"}),
			node("id", "Identity", []string{"a"}, []string{"y1"}),
			node("seq", "SequenceConstruct", []string{"s", "a"}, []string{"q"}),
			node("mul", "Mul", []string{"a", "a"}, []string{"m"}),
			node("split", "Split", []string{"m"}, []string{"p1", "p2"}, intAttr("axis", 0)),
			node("neg", "Neg", []string{"p1"}, []string{"n"}),
			node("sub", "Sub", []string{"n", "p2"}, []string{"y2"}),
			node("abs", "Abs", []string{"y2"}, []string{"y3"}),
		},
		inputs:  []*pb.ValueInfoProto{{Name: ptr("x")}},
		outputs: []*pb.ValueInfoProto{{Name: ptr("y1")}, {Name: ptr("r")}, {Name: ptr("q")}, {Name: ptr("y2")}, {Name: ptr("y3")}},
	}
}

// Runs of kernels, with and without a Pool, on inputs of two shapes in
// turn, give what the reference engine gives, and no output a caller
// holds ever changes afterwards: the headers the kernels' outputs get
// back (headers.go) are only ever ones no output reached.
func TestKernelHeadersNeverTouchOutputs(t *testing.T) {
	for _, pooled := range []bool{false, true} {
		m := kernelModel().load(t)
		r := rand.New(rand.NewPCG(3, 4))
		opts := &graph.RunOptions{}
		if pooled {
			opts.Pool = graph.NewPool()
		}
		keepsOutputs(t, 40, opts, func(i int) map[string]tensor.Value {
			x := randomInput(r, 2, 3, 4+i/10%2)
			v, _ := tensor.Data[float32](x)
			for k := range v {
				v[k] -= 0.5
			}
			return map[string]tensor.Value{"x": x}
		}, func(in map[string]tensor.Value) (graph.Result, error) {
			return m.Run(context.Background(), in, &graph.RunOptions{Engine: graph.EngineReference})
		}, m)
	}
}

// A warm pooled run of small computing nodes allocates nothing per node
// once the shapes repeat: a chain of 40 allocates no more than one of 8.
func TestWarmKernelRunAllocatesNothingPerNode(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	allocs := func(n int) float64 {
		s := modelSpec{
			inputs:  []*pb.ValueInfoProto{info("x", tensor.Float, 1, 32)},
			outputs: []*pb.ValueInfoProto{{Name: ptr(fmt.Sprintf("t%d", n))}},
		}
		prev := "x"
		for i := 1; i <= n; i++ {
			name := fmt.Sprintf("t%d", i)
			// No two neighbours fuse into an elementwise chain (Relu and
			// Sigmoid do): a chain's inside step passes X through and
			// gives up X's header (runChain), one header a chain a run.
			op := []string{"Relu", "Neg", "Sigmoid", "Abs"}[i%4]
			s.nodes = append(s.nodes, node(name, op, []string{prev}, []string{name}))
			prev = name
		}
		m := s.load(t)
		pool := graph.NewPool()
		in := map[string]tensor.Value{"x": randomInput(rand.New(rand.NewPCG(1, 1)), 1, 32)}
		opts := &graph.RunOptions{Pool: pool, Threads: 1}
		run := func() {
			out, err := m.Run(context.Background(), in, opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range out.Map() {
				if err := pool.Release(v); err != nil {
					t.Fatal(err)
				}
			}
		}
		run()
		run()
		runtime.GC()
		return testing.AllocsPerRun(50, run)
	}
	short, long := allocs(8), allocs(40)
	if long > short {
		t.Errorf("a warm run of 40 small kernels allocates %v times, of 8 %v: the nodes allocate", long, short)
	}
}

// An If's outputs keep the headers their branch made (body.heirs): runs
// taking either branch in turn, on inputs of two shapes, with the If's
// output read by a later node, returned as a graph output and passed out
// of a nested If, give what the reference engine gives, and no output a
// caller holds changes afterwards.
func TestBranchHeadersNeverTouchOutputs(t *testing.T) {
	branch := func(name, op, x string) *pb.GraphProto {
		return &pb.GraphProto{Name: ptr(name),
			Node:   []*pb.NodeProto{node(name, op, []string{x}, []string{name + "_y"})},
			Output: []*pb.ValueInfoProto{untyped(name+"_y", tensor.Float)}}
	}
	inner := func(name string) *pb.GraphProto {
		return &pb.GraphProto{Name: ptr(name),
			Node: []*pb.NodeProto{node(name+"_if", "If", []string{"c2"}, []string{name + "_y"},
				graphAttr("then_branch", branch(name+"_then", "Relu", "x")), graphAttr("else_branch", branch(name+"_else", "Identity", "x")))},
			Output: []*pb.ValueInfoProto{untyped(name+"_y", tensor.Float)}}
	}
	for _, pooled := range []bool{false, true} {
		spec := modelSpec{opset: 13,
			nodes: []*pb.NodeProto{
				node("if1", "If", []string{"c"}, []string{"y1"}, graphAttr("then_branch", branch("t1", "Neg", "x")), graphAttr("else_branch", branch("e1", "Sigmoid", "x"))),
				node("abs", "Abs", []string{"y1"}, []string{"a"}),
				node("if2", "If", []string{"c"}, []string{"y2"}, graphAttr("then_branch", inner("t2")), graphAttr("else_branch", branch("e2", "Neg", "x"))),
				node("if3", "If", []string{"c2"}, []string{"y3"}, graphAttr("then_branch", branch("t3", "Abs", "x")), graphAttr("else_branch", branch("e3", "Relu", "x"))),
				node("sig", "Sigmoid", []string{"y3"}, []string{"s"}),
			},
			inputs:  []*pb.ValueInfoProto{scalarInfo("c", tensor.Bool), scalarInfo("c2", tensor.Bool), {Name: ptr("x")}},
			outputs: []*pb.ValueInfoProto{untyped("a", tensor.Float), untyped("y2", tensor.Float), untyped("s", tensor.Float), untyped("y1", tensor.Float)},
		}
		if pooled {
			spec.outputs = spec.outputs[:3] // y1 only read by Abs
		}
		m := spec.load(t)
		r := rand.New(rand.NewPCG(5, 6))
		opts := &graph.RunOptions{}
		if pooled {
			opts.Pool = graph.NewPool()
		}
		keepsOutputs(t, 48, opts, func(i int) map[string]tensor.Value {
			x := randomInput(r, 2, 3+i/12%2)
			v, _ := tensor.Data[float32](x)
			for k := range v {
				v[k] -= 0.5
			}
			return map[string]tensor.Value{"x": x, "c": tensor.Scalar(i%3 != 0), "c2": tensor.Scalar(i%4 < 2)}
		}, func(in map[string]tensor.Value) (graph.Result, error) {
			return m.Run(context.Background(), in, &graph.RunOptions{Engine: graph.EngineReference})
		}, m)
	}
}

// The header of a product whose bias Add and Relu fusion absorbs passes
// along with its value (passInput) and back to the product's next run
// (step.headerAt): runs with the Relu's output returned, read by a later
// node, and inside an If's branch give what the same model unfused gives
// (the fusions keep the bits), and no output a caller holds changes
// afterwards.
func TestPassedHeadersNeverTouchOutputs(t *testing.T) {
	layer := func(p, x, y string) []*pb.NodeProto {
		return []*pb.NodeProto{
			node(p+"mm", "MatMul", []string{x, "w"}, []string{p + "m"}),
			node(p+"add", "Add", []string{p + "m", "b"}, []string{p + "a"}),
			node(p+"relu", "Relu", []string{p + "a"}, []string{y}),
		}
	}
	then := &pb.GraphProto{Name: ptr("then"), Node: layer("t", "y1", "ty"), Output: []*pb.ValueInfoProto{untyped("ty", tensor.Float)}}
	els := &pb.GraphProto{Name: ptr("else"), Node: []*pb.NodeProto{node("eneg", "Neg", []string{"y1"}, []string{"ey"})}, Output: []*pb.ValueInfoProto{untyped("ey", tensor.Float)}}
	nodes := append(layer("l1", "x", "y1"), layer("l2", "y1", "y2")...)
	nodes = append(nodes, node("neg", "Neg", []string{"y2"}, []string{"n"}),
		node("if", "If", []string{"c"}, []string{"y3"}, graphAttr("then_branch", then), graphAttr("else_branch", els)))
	for _, pooled := range []bool{false, true} {
		spec := modelSpec{
			nodes:   nodes,
			inits:   []*pb.TensorProto{floats("w", []int64{4, 4}, 1, -2, 3, 0.5, -1, 2, 0.25, 1, 3, -0.5, 1, 2, 0, 1, -1, 0.5), floats("b", []int64{4}, 0.5, -1, 0.25, 0)},
			inputs:  []*pb.ValueInfoProto{scalarInfo("c", tensor.Bool), {Name: ptr("x")}},
			outputs: []*pb.ValueInfoProto{untyped("y1", tensor.Float), untyped("n", tensor.Float), untyped("y3", tensor.Float)},
		}
		m := spec.load(t)
		if m.Fusions() == 0 {
			t.Fatal("nothing fused")
		}
		plain, err := graph.LoadBytesWith(spec.bytes(t), "", graph.LoadOptions{NoFuse: true})
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(7, 8))
		opts := &graph.RunOptions{Threads: 1}
		if pooled {
			opts.Pool = graph.NewPool()
		}
		keepsOutputs(t, 48, opts, func(i int) map[string]tensor.Value {
			x := randomInput(r, 2+i/12%2, 4)
			v, _ := tensor.Data[float32](x)
			for k := range v {
				v[k] -= 0.5
			}
			return map[string]tensor.Value{"x": x, "c": tensor.Scalar(i%3 != 0)}
		}, func(in map[string]tensor.Value) (graph.Result, error) {
			return plain.Run(context.Background(), in, &graph.RunOptions{Threads: 1})
		}, m)
	}
}

// keepsOutputs runs m under opts on inputs(i) for i < n and compares each
// run's outputs with want's; with a Pool, every third run's outputs go back
// to it and the others are kept: at the end, none of those has changed.
func keepsOutputs(t *testing.T, n int, opts *graph.RunOptions, inputs func(i int) map[string]tensor.Value, want func(map[string]tensor.Value) (graph.Result, error), m *graph.Model) {
	t.Helper()
	type kept struct{ got, want map[string]tensor.Value }
	var all []kept
	for i := range n {
		in := inputs(i)
		w, err := want(in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := m.Run(context.Background(), in, opts)
		if err != nil {
			t.Fatal(err)
		}
		sameOutputs(t, "the run", got.Map(), w.Map())
		all = append(all, kept{got.Map(), cloneOutputs(w.Map())})
		if opts.Pool != nil && i%3 == 0 {
			for _, v := range all[len(all)-1].got {
				if err := opts.Pool.Release(v); err != nil {
					t.Fatal(err)
				}
			}
			all = all[:len(all)-1]
		}
	}
	for _, k := range all {
		sameOutputs(t, "a kept output", k.got, k.want)
	}
}
