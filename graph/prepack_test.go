package graph_test

import (
	"context"
	"math"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// A model's constant MatMul weights are packed once at load, counted in
// PackedBytes (within the model's cap) and used by every run: the runs
// agree with the reference engine, and a caller's override of the
// initializer (listed as an input, before IR 4) is used instead.
func TestPackedWeights(t *testing.T) {
	const k, n = 96, 40
	w := make([]float32, k*n)
	for i := range w {
		w[i] = float32(math.Sin(float64(i)))
	}
	s := modelSpec{
		nodes:   []*pb.NodeProto{node("mm", "MatMul", []string{"x", "w"}, []string{"y"})},
		inits:   []*pb.TensorProto{floats("w", []int64{k, n}, w...)},
		inputs:  []*pb.ValueInfoProto{info("x", tensor.Float, 8, k), info("w", tensor.Float, k, n)},
		outputs: []*pb.ValueInfoProto{info("y", tensor.Float, 8, n)},
	}
	m := s.load(t)
	if got, min := m.PackedBytes(), int64(k*n*4); got < min {
		t.Fatalf("PackedBytes = %d, want at least %d", got, min)
	}
	x := make([]float32, 8*k)
	for i := range x {
		x[i] = float32(math.Cos(float64(i)))
	}
	xt := tensor.MustFromSlice(x, 8, k)
	run := func(in map[string]tensor.Value, o *graph.RunOptions) *tensor.Tensor {
		out, err := m.Run(context.Background(), in, o)
		if err != nil {
			t.Fatal(err)
		}
		return out.Map()["y"].(*tensor.Tensor)
	}
	ref := run(map[string]tensor.Value{"x": xt}, &graph.RunOptions{Engine: graph.EngineReference})
	for range 3 {
		got := run(map[string]tensor.Value{"x": xt}, nil)
		a, _ := tensor.Data[float32](got)
		b, _ := tensor.Data[float32](ref)
		for i := range a {
			if d := math.Abs(float64(a[i] - b[i])); d > 1e-4*(1+math.Abs(float64(b[i]))) {
				t.Fatalf("y[%d] = %g, reference %g", i, a[i], b[i])
			}
		}
	}
	// The caller's own w: all ones.
	ones := make([]float32, k*n)
	for i := range ones {
		ones[i] = 1
	}
	got, _ := tensor.Data[float32](run(map[string]tensor.Value{"x": xt, "w": tensor.MustFromSlice(ones, k, n)}, nil))
	var row float32
	for p := range k {
		row += x[p]
	}
	if math.Abs(float64(got[0]-row)) > 1e-4 {
		t.Errorf("with the caller's w, y[0] = %g, want %g", got[0], row)
	}

	// Under a model cap below the packed copy, the weights stay unpacked
	// and the model still runs.
	small, err := graph.FromProtoWith(s.proto(), "", graph.LoadOptions{MaxModelBytes: k * n * 4})
	if err != nil {
		t.Fatal(err)
	}
	if small.PackedBytes() != 0 {
		t.Errorf("PackedBytes under a small cap = %d", small.PackedBytes())
	}
}
