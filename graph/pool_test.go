package graph_test

import (
	"context"
	"runtime"
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
	run := func() map[string]tensor.Value {
		out, err := m.Run(context.Background(), in, o)
		if err != nil {
			t.Fatal(err)
		}
		for name, w := range want {
			if !out[name].(*tensor.Tensor).Equal(w.(*tensor.Tensor)) {
				t.Fatalf("output %s differs with a pool", name)
			}
		}
		return out
	}
	for range 3 { // warm up
		out := run()
		pool.Release(out["flat"], out["same"])
	}
	if !x.Equal(orig) || !want["same"].(*tensor.Tensor).Equal(orig) {
		t.Fatal("releasing an output that is the caller's input must leave it alone")
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	const runs = 20
	for range runs {
		out := run()
		pool.Release(out["flat"], out["same"])
	}
	runtime.ReadMemStats(&after)
	outBytes := uint64(len(want["flat"].(*tensor.Tensor).Bytes()))
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
	kept := first["flat"].(*tensor.Tensor).Clone()
	v, _ := tensor.Data[float32](x)
	for i := range 5 {
		v[0] = float32(i + 1) // only between runs: inputs are not modified by runs
		out, err := m.Run(context.Background(), in, o)
		if err != nil {
			t.Fatal(err)
		}
		if out["flat"].(*tensor.Tensor).SharesStorage(first["flat"].(*tensor.Tensor)) {
			t.Fatal("an unreleased output was handed out again")
		}
		pool.Release(out["flat"])
	}
	if !first["flat"].(*tensor.Tensor).Equal(kept) {
		t.Fatal("an unreleased output was overwritten")
	}
}
