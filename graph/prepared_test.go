package graph_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// movementModel runs data-movement nodes (prepared after their first run)
// whose values leave the run every way one can: a graph output produced by
// a prepared node, an intermediate that is also a graph output, a value
// that Identity passes to an output, and values a non-prepared kernel
// (SequenceConstruct) keeps in its output.
func movementModel() modelSpec {
	return modelSpec{
		nodes: []*pb.NodeProto{
			node("tr", "Transpose", []string{"x"}, []string{"t1"}, intsAttr("perm", 2, 0, 1)),
			node("re", "Reshape", []string{"t1", "shape"}, []string{"t2"}),
			node("sl", "Slice", []string{"t2", "starts", "ends", "axes"}, []string{"t3"}),
			node("id", "Identity", []string{"t3"}, []string{"t4"}),
			node("id1", "Identity", []string{"t1"}, []string{"y1"}),
			node("seq", "SequenceConstruct", []string{"t3", "t1"}, []string{"s"}),
			node("tr2", "Transpose", []string{"t4"}, []string{"t5"}, intsAttr("perm", 1, 0)),
			node("un", "Unsqueeze", []string{"t5", "axes"}, []string{"t6"}),
		},
		inits: []*pb.TensorProto{int64s("shape", []int64{2}, 0, -1), int64s("starts", []int64{1}, 1),
			int64s("ends", []int64{1}, 3), int64s("axes", []int64{1}, 0)},
		inputs: []*pb.ValueInfoProto{{Name: ptr("x")}},
		outputs: []*pb.ValueInfoProto{{Name: ptr("t4")}, {Name: ptr("t2")}, {Name: ptr("y1")}, {Name: ptr("s")},
			{Name: ptr("t6")}},
	}
}

func randomInput(r *rand.Rand, shape ...int) *tensor.Tensor {
	x := tensor.MustNew(tensor.Float, shape...)
	v, _ := tensor.Data[float32](x)
	for i := range v {
		v[i] = r.Float32()
	}
	return x
}

// cloneOutputs deep-copies a run's outputs.
func cloneOutputs(out map[string]tensor.Value) map[string]tensor.Value {
	c := map[string]tensor.Value{}
	for k, v := range out {
		switch v := v.(type) {
		case *tensor.Tensor:
			c[k] = v.Clone()
		case *tensor.Sequence:
			s := &tensor.Sequence{ElemType: v.ElemType}
			for _, t := range v.Items {
				s.Items = append(s.Items, t.Clone())
			}
			c[k] = s
		}
	}
	return c
}

func sameOutputs(t *testing.T, what string, got, want map[string]tensor.Value) {
	t.Helper()
	for k, w := range want {
		switch w := w.(type) {
		case *tensor.Tensor:
			if g, ok := got[k].(*tensor.Tensor); !ok || !g.Equal(w) {
				t.Fatalf("%s: output %s is %v, want %v", what, k, got[k], w)
			}
		case *tensor.Sequence:
			g, ok := got[k].(*tensor.Sequence)
			if !ok || len(g.Items) != len(w.Items) {
				t.Fatalf("%s: output %s is %v, want %v", what, k, got[k], w)
			}
			for i := range w.Items {
				if !g.Items[i].Equal(w.Items[i]) {
					t.Fatalf("%s: output %s item %d is %v, want %v", what, k, i, g.Items[i], w.Items[i])
				}
			}
		}
	}
}

// Runs that replay prepared nodes, with and without a Pool, on inputs of
// two shapes in turn, give what the reference engine gives, and no output
// a caller holds ever changes afterwards: the headers a run reuses are only
// ever ones no output reached.
func TestPreparedRunsNeverTouchOutputs(t *testing.T) {
	for _, pooled := range []bool{false, true} {
		m := movementModel().load(t)
		r := rand.New(rand.NewPCG(1, 2))
		opts := &graph.RunOptions{}
		if pooled {
			opts.Pool = graph.NewPool()
		}
		type kept struct{ got, want map[string]tensor.Value }
		var all []kept
		for i := range 40 {
			x := randomInput(r, 2, 3, 4+i/10%2) // ten runs of a shape, then the other
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
			if pooled && i%3 == 0 { // give some back, keep the others
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

// A warm run allocates what it hands out, whatever the number of nodes,
// with a Pool or without (the run then recycles its small intermediates
// itself), and however often the garbage collector runs between runs: a
// chain of 40 data-movement nodes allocates no more than one of 8.
// (Counts, not times: testing.AllocsPerRun.)
func TestWarmRunAllocatesOnlyOutputs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	allocs := func(n int, pool *graph.Pool) float64 {
		m := transposeChain(n, 2, 3, 4).load(t)
		in := map[string]tensor.Value{"x": randomInput(rand.New(rand.NewPCG(1, 1)), 2, 3, 4)}
		opts := &graph.RunOptions{Pool: pool}
		run := func() {
			out, err := m.Run(context.Background(), in, opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range out.Map() {
				if pool == nil {
					continue
				}
				if err := pool.Release(v); err != nil {
					t.Fatal(err)
				}
			}
			runtime.GC() // a program allocating elsewhere: the state stays
			runtime.GC()
		}
		run()
		return testing.AllocsPerRun(50, run)
	}
	for _, pooled := range []bool{false, true} {
		pool := func() *graph.Pool {
			if pooled {
				return graph.NewPool()
			}
			return nil
		}
		short, long := allocs(8, pool()), allocs(40, pool())
		if long > short {
			t.Errorf("pooled %v: a warm run of 40 nodes allocates %v times, of 8 nodes %v: the nodes allocate", pooled, long, short)
		}
		if short > 8 {
			t.Errorf("pooled %v: a warm run of 8 nodes allocates %v times, more than its output, map and records", pooled, short)
		}
	}
}

// A prepared node honours each run's own options: a cap lower than the
// output is refused, a cancelled context stops the run.
func TestPreparedHonoursEachRun(t *testing.T) {
	m := transposeChain(4, 2, 3, 4).load(t)
	in := map[string]tensor.Value{"x": randomInput(rand.New(rand.NewPCG(3, 4)), 2, 3, 4)}
	if _, err := m.Run(context.Background(), in, nil); err != nil {
		t.Fatal(err)
	}
	_, err := m.Run(context.Background(), in, &graph.RunOptions{MaxTensorBytes: 64})
	if !errors.Is(err, ops.ErrLimit) {
		t.Errorf("cap of 64 bytes on 96-byte outputs: %v", err)
	}
	_, err = m.Run(context.Background(), in, &graph.RunOptions{MaxRunBytes: 100})
	if !errors.Is(err, ops.ErrLimit) {
		t.Errorf("run cap of 100 bytes, two 96-byte values live: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Run(ctx, in, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if _, err := m.Run(context.Background(), in, nil); err != nil {
		t.Errorf("after the refusals: %v", err)
	}
}
