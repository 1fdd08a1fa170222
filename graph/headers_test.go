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
		type kept struct{ got, want map[string]tensor.Value }
		var all []kept
		for i := range 40 {
			x := randomInput(r, 2, 3, 4+i/10%2)
			v, _ := tensor.Data[float32](x)
			for k := range v {
				v[k] -= 0.5
			}
			in := map[string]tensor.Value{"x": x}
			want, err := m.Run(context.Background(), in, &graph.RunOptions{Engine: graph.EngineReference})
			if err != nil {
				t.Fatal(err)
			}
			got, err := m.Run(context.Background(), in, opts)
			if err != nil {
				t.Fatal(err)
			}
			sameOutputs(t, "the run", got.Map(), want.Map())
			all = append(all, kept{got.Map(), cloneOutputs(want.Map())})
			if pooled && i%3 == 0 {
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
