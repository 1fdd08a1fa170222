package graph_test

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"testing"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/tensor"
)

// pipeline: Transpose, Pad, a Reshape view, Identity of the input, so that
// outputs mix new storage, views and the caller's own input.
func pipeline(t *testing.T) *graph.Model {
	b := builder.New(21)
	x := b.Input("x", tensor.Float, 1, 64, 64, 8)
	nchw := b.Op("Transpose", x, builder.Ints("perm", 0, 3, 1, 2))
	padded := b.Op("Pad", nchw, b.Ints64("pads", 0, 0, 1, 1, 0, 0, 1, 1), builder.None, builder.None, builder.String("mode", "edge"))
	flat := b.Op("Reshape", padded, b.Ints64("shape", 8, -1), builder.Int("allowzero", 0))
	b.Output("flat", flat)
	b.Output("same", b.Op("Identity", x))
	return load(t, b)
}

func TestPoolRecyclesAndNeverCorrupts(t *testing.T) {
	m := pipeline(t)
	x := tensor.MustNew(tensor.Float, 1, 64, 64, 8)
	v, _ := tensor.Data[float32](x)
	for i := range v {
		v[i] = float32(i)
	}
	orig := x.Clone()
	in := map[string]tensor.Value{"x": x}
	want, err := m.Run(context.Background(), in, nil)
	if err != nil {
		t.Fatal(err)
	}
	pool := graph.NewPool()
	o := &graph.RunOptions{Pool: pool}
	run := func() map[string]tensor.Value { t.Helper(); return runPooledAsPlain(t, m, in, o, want) }
	for range 3 { // warm up
		out := run()
		if err := pool.Release(out["flat"], out["same"]); err != nil {
			t.Fatal(err)
		}
	}
	if !x.Equal(orig) || !want.Map()["same"].(*tensor.Tensor).Equal(orig) {
		t.Fatal("releasing an output that is the caller's input must leave it alone")
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	const runs = 20
	for range runs {
		out := run()
		if err := pool.Release(out["flat"], out["same"]); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	outBytes := uint64(len(want.Map()["flat"].(*tensor.Tensor).Bytes()))
	if perRun := (after.TotalAlloc - before.TotalAlloc) / runs; perRun > outBytes/10 {
		t.Errorf("a warm pooled run allocates %d bytes; the output alone is %d", perRun, outBytes)
	}
	if !x.Equal(orig) {
		t.Fatal("the input changed")
	}
}

// An output kept (not released) is never handed out again, even while other
// runs recycle storage.
func TestPoolKeepsUnreleasedOutputs(t *testing.T) {
	m := pipeline(t)
	x := tensor.MustNew(tensor.Float, 1, 64, 64, 8)
	in := map[string]tensor.Value{"x": x}
	pool := graph.NewPool()
	o := &graph.RunOptions{Pool: pool}
	first, err := m.Run(context.Background(), in, o)
	if err != nil {
		t.Fatal(err)
	}
	kept := first.Map()["flat"].(*tensor.Tensor).Clone()
	v, _ := tensor.Data[float32](x)
	for i := range 5 {
		v[0] = float32(i + 1) // only between runs: inputs are not modified by runs
		out, err := m.Run(context.Background(), in, o)
		if err != nil {
			t.Fatal(err)
		}
		if out.Map()["flat"].(*tensor.Tensor).SharesStorage(first.Map()["flat"].(*tensor.Tensor)) {
			t.Fatal("an unreleased output was handed out again")
		}
		if err := pool.Release(out.Map()["flat"]); err != nil {
			t.Fatal(err)
		}
	}
	if !first.Map()["flat"].(*tensor.Tensor).Equal(kept) {
		t.Fatal("an unreleased output was overwritten")
	}
}

// An output fed to another pooled run stays the caller's: the second run
// must not recycle it, whatever it does with its own intermediates.
func TestPoolNeverRecyclesAnOutputFedBack(t *testing.T) {
	m := transposeChain(2, 2, 8, 16).load(t)
	pool := graph.NewPool()
	o := &graph.RunOptions{Pool: pool}
	run := func(x tensor.Value) *tensor.Tensor {
		t.Helper()
		out, err := m.Run(context.Background(), map[string]tensor.Value{"x": x}, o)
		if err != nil {
			t.Fatal(err)
		}
		return out.Map()["t2"].(*tensor.Tensor)
	}
	x := tensor.MustNew(tensor.Float, 2, 8, 16)
	v, _ := tensor.Data[float32](x)
	for i := range v {
		v[i] = float32(i)
	}
	first := run(x)
	kept := first.Clone()
	second := run(first) // first is an input here: never the run's to give back
	for range 4 {        // runs that would reuse any storage given back
		if err := pool.Release(run(x)); err != nil {
			t.Fatal(err)
		}
	}
	if !first.Equal(kept) {
		t.Fatal("an output fed to another run was recycled and overwritten")
	}
	if second.SharesStorage(first) {
		t.Fatal("two outputs share storage")
	}
	if err := pool.Release(first, second); err != nil {
		t.Fatal(err)
	}
}

func TestPoolReleaseErrors(t *testing.T) {
	m := transposeChain(1, 1, 2, 2).load(t)
	pool := graph.NewPool()
	x := tensor.MustNew(tensor.Float, 1, 2, 2)
	out, err := m.Run(context.Background(), map[string]tensor.Value{"x": x}, &graph.RunOptions{Pool: pool})
	if err != nil {
		t.Fatal(err)
	}
	y := out.Map()["t1"]
	for name, vals := range map[string][]tensor.Value{
		"never handed out":  {x},
		"twice in one call": {y, y},
		"nil":               {nil},
		"nil tensor":        {(*tensor.Tensor)(nil)},
		"nil sequence item": {&tensor.Sequence{ElemType: tensor.Float, Items: []*tensor.Tensor{nil}}},
	} {
		if err := pool.Release(vals...); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if err := pool.Release(y); err != nil {
		t.Fatalf("the first release: %v", err)
	}
	if err := pool.Release(y); !errors.Is(err, graph.ErrNotHeld) {
		t.Fatalf("released twice: got %v, want ErrNotHeld", err)
	}
	if err := (*graph.Pool)(nil).Release(y); err == nil {
		t.Error("nil pool: no error")
	}
	// The zero Pool works.
	var zero graph.Pool
	out, err = m.Run(context.Background(), map[string]tensor.Value{"x": x}, &graph.RunOptions{Pool: &zero})
	if err != nil {
		t.Fatal(err)
	}
	if err := zero.Release(out.Map()["t1"]); err != nil {
		t.Fatal(err)
	}
}

// Runs sharing one pool from many goroutines never see each other's
// storage: each output matches a run without the pool.
func TestPoolConcurrentRuns(t *testing.T) {
	m := pipeline(t)
	pool := graph.NewPool()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			x := tensor.MustNew(tensor.Float, 1, 64, 64, 8)
			v, _ := tensor.Data[float32](x)
			in := map[string]tensor.Value{"x": x}
			for i := range 10 {
				v[0] = float32(100*g + i)
				want, err := m.Run(context.Background(), in, nil)
				if err != nil {
					t.Error(err)
					return
				}
				got, err := m.Run(context.Background(), in, &graph.RunOptions{Pool: pool})
				if err != nil {
					t.Error(err)
					return
				}
				if !got.Map()["flat"].(*tensor.Tensor).Equal(want.Map()["flat"].(*tensor.Tensor)) {
					t.Error("a pooled output differs")
				}
				if err := pool.Release(got.Map()["flat"], got.Map()["same"]); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
}

// A run that holds many tensors of one size at once (the 64 pieces of a
// SplitToSequence) finds them all in the pool again once warm: the pool
// keeps as many of a size as it once lent together, not a fixed few.
func TestPoolKeepsManyPiecesOfOneSize(t *testing.T) {
	b := builder.New(21)
	x := b.Input("x", tensor.Float, 2, 64, 16, 16)
	s := b.Op("SplitToSequence", x, builder.Int("axis", 1))
	b.Output("y", b.Op("ConcatFromSequence", s, builder.Int("axis", 1)))
	m := load(t, b)
	in := map[string]tensor.Value{"x": tensor.MustNew(tensor.Float, 2, 64, 16, 16)}
	pool := graph.NewPool()
	o := &graph.RunOptions{Pool: pool}
	run := func() {
		out, err := m.Run(context.Background(), in, o)
		if err != nil {
			t.Fatal(err)
		}
		if err := pool.Release(out.Map()["y"]); err != nil {
			t.Fatal(err)
		}
	}
	run()
	warm := graph.PoolFreshBytes(pool)
	for range 3 {
		run()
	}
	if fresh := graph.PoolFreshBytes(pool); fresh != warm {
		t.Errorf("warm runs allocated %d bytes new; want none", fresh-warm)
	}
}

// A released output's header comes back as the same slot's output in a
// later pooled run, rewrapped; an output still held never does, the
// input never changes, and a header the pool keeps is not the caller's
// to release again.
func TestPoolLendsReleasedOutputHeaders(t *testing.T) {
	b := builder.New(21)
	x := b.Input("x", tensor.Float, 2, 3, 4)
	b.Output("sh", b.Op("Shape", x))
	b.Output("tr", b.Op("Transpose", x, builder.Ints("perm", 2, 0, 1)))
	b.Output("same", b.Op("Identity", x))
	m := load(t, b)
	xt := tensor.MustNew(tensor.Float, 2, 3, 4)
	v, _ := tensor.Data[float32](xt)
	for i := range v {
		v[i] = float32(i)
	}
	in := map[string]tensor.Value{"x": xt}
	want, err := m.Run(context.Background(), in, nil)
	if err != nil {
		t.Fatal(err)
	}
	pool := graph.NewPool()
	o := &graph.RunOptions{Pool: pool}
	run := func() map[string]tensor.Value { t.Helper(); return runPooledAsPlain(t, m, in, o, want) }
	first := run()
	if err := pool.Release(first["sh"], first["tr"], first["same"]); err != nil {
		t.Fatal(err)
	}
	second := run()
	for _, name := range []string{"sh", "tr", "same"} { // same: a view the run made
		if second[name] != first[name] {
			t.Errorf("output %s: the released header was not lent back", name)
		}
	}
	third := run() // second is still held: nothing of it comes back
	if third["same"] == second["same"] {
		t.Error("output same: a held header was handed out again")
	}
	for _, name := range []string{"sh", "tr"} {
		if third[name] == second[name] || third[name].(*tensor.Tensor).SharesStorage(second[name].(*tensor.Tensor)) {
			t.Errorf("output %s: a held output was handed out again", name)
		}
	}
	if !second["tr"].(*tensor.Tensor).Equal(want.Map()["tr"].(*tensor.Tensor)) {
		t.Error("a held output changed")
	}
	if err := pool.Release(second["sh"], second["tr"], second["same"], third["sh"], third["tr"], third["same"]); err != nil {
		t.Fatal(err)
	}
	if err := pool.Release(second["sh"]); !errors.Is(err, graph.ErrNotHeld) {
		t.Errorf("a spare header released again: %v", err)
	}
	v2, _ := tensor.Data[float32](xt)
	for i := range v2 {
		if v2[i] != float32(i) {
			t.Fatal("the input changed")
		}
	}
	allocs := testing.AllocsPerRun(50, func() {
		out := run()
		if err := pool.Release(out["sh"], out["tr"], out["same"]); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("%.0f allocations a warm pooled run", allocs)
}

// runPooledAsPlain runs m with o (a pool) and fails unless every output
// equals want's (the run without a pool); it returns the outputs by name.
func runPooledAsPlain(t *testing.T, m *graph.Model, in map[string]tensor.Value, o *graph.RunOptions, want graph.Result) map[string]tensor.Value {
	t.Helper()
	out, err := m.Run(context.Background(), in, o)
	if err != nil {
		t.Fatal(err)
	}
	got := out.Map()
	for name, w := range want.Map() {
		if !got[name].(*tensor.Tensor).Equal(w.(*tensor.Tensor)) {
			t.Fatalf("output %s differs with a pool", name)
		}
	}
	return got
}
