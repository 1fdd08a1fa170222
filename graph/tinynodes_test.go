package graph_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/onnxshape/onnxshape/builder"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/tensor"
)

// tinyChain is a model of blocks of 8 small nodes over a [1,4] float
// tensor, the kind a streaming model's step is made of (silero's VAD step
// is ~200 of them around a few convolutions): Add, Mul, Cast to double and
// back, Slice, Concat, Gather, Relu, each reading the one before.
func tinyChain(tb testing.TB, blocks int) *graph.Model {
	b := builder.New(17)
	x := b.Input("x", tensor.Float, 1, 4)
	c := b.Constant("c", tensor.MustFromSlice([]float32{0.5, -0.25, 0.125, 1}, 1, 4))
	starts, ends, axes := b.Ints64("starts", 0), b.Ints64("ends", 4), b.Ints64("axes", 1)
	idx := b.Ints64("idx", 4, 5, 6, 7)
	v := x
	for range blocks {
		v = b.Op("Add", v, c)
		v = b.Op("Mul", v, c)
		v = b.Op("Cast", v, builder.Int("to", int(tensor.Double)))
		v = b.Op("Cast", v, builder.Int("to", int(tensor.Float)))
		v = b.Op("Slice", v, starts, ends, axes)
		v = b.Op("Concat", c, v, builder.Int("axis", 1))
		v = b.Op("Gather", v, idx, builder.Int("axis", 1))
		v = b.Op("Relu", v)
	}
	b.Output("y", v)
	m, err := b.Build()
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// BenchmarkTinyNodes runs 40 and 200 small nodes (tinyChain) pooled at one
// thread and reports the CPU time (getrusage: the benchmark's process, setup
// included, so run it long) and the allocations per node: the runner's
// and the small kernels' fixed costs.
func BenchmarkTinyNodes(b *testing.B) {
	for _, blocks := range []int{5, 25} {
		b.Run(fmt.Sprint(blocks*8), func(b *testing.B) {
			m := tinyChain(b, blocks)
			in := map[string]tensor.Value{"x": tensor.MustFromSlice([]float32{1, -2, 3, -4}, 1, 4)}
			o := &graph.RunOptions{Threads: 1, Pool: graph.NewPool()}
			b.ReportAllocs()
			cpu := cpuSeconds()
			for b.Loop() {
				out, err := m.Run(context.Background(), in, o)
				if err != nil {
					b.Fatal(err)
				}
				if err := o.Pool.Release(out.Map()["y"]); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cpuSeconds()-cpu)*1e9/float64(b.N)/float64(blocks*8), "cpu-ns/node")
		})
	}
}

// BenchmarkTinyConv runs one 1-D convolution of silero's VAD encoder
// (129 -> 128 channels, kernel 3, pad 1, over 4 positions) pooled at one
// thread: a small kernel whose per-call setup weighs.
func BenchmarkTinyConv(b *testing.B) {
	bl := builder.New(17)
	x := bl.Input("x", tensor.Float, 1, 129, 4)
	w := tensor.MustNew(tensor.Float, 128, 129, 3)
	wv, _ := tensor.Data[float32](w)
	for i := range wv {
		wv[i] = float32(i%7-3) / 16
	}
	y := bl.Op("Conv", x, bl.Constant("w", w), bl.Constant("b", tensor.MustNew(tensor.Float, 128)),
		builder.Ints("kernel_shape", 3), builder.Ints("pads", 1, 1))
	bl.Output("y", y)
	m, err := bl.Build()
	if err != nil {
		b.Fatal(err)
	}
	in := map[string]tensor.Value{"x": tensor.MustNew(tensor.Float, 1, 129, 4)}
	o := &graph.RunOptions{Threads: 1, Pool: graph.NewPool()}
	b.ReportAllocs()
	cpu := cpuSeconds()
	for b.Loop() {
		out, err := m.Run(context.Background(), in, o)
		if err != nil {
			b.Fatal(err)
		}
		if err := o.Pool.Release(out.Map()["y"]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cpuSeconds()-cpu)*1e9/float64(b.N), "cpu-ns/op")
}

// The tiny chain computes what it should: each block maps v to
// relu((v+c)*c) elementwise (Cast to double and back is exact on these).
func TestTinyChainValues(t *testing.T) {
	m := tinyChain(t, 2)
	out, err := m.Run(context.Background(), map[string]tensor.Value{"x": tensor.MustFromSlice([]float32{1, -2, 3, -4}, 1, 4)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := tensor.Data[float32](out.Map()["y"].(*tensor.Tensor))
	c := []float32{0.5, -0.25, 0.125, 1}
	v := []float32{1, -2, 3, -4}
	for range 2 {
		for i := range v {
			v[i] = max((v[i]+c[i])*c[i], 0)
		}
	}
	for i := range v {
		if got[i] != v[i] {
			t.Fatalf("got %v, want %v", got, v)
		}
	}
}
