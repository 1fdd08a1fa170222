package infer_test

import (
	"testing"
	"time"

	"github.com/onnxshape/onnxshape/infer"
	"github.com/onnxshape/onnxshape/onnx/pb"
)

// bigModel is a chain of n nodes over a [N, 64, H, W] input as an exporter
// writes a deep network: elementwise layers, reshapes to computed shapes
// and transposes, every shape symbolic.
func bigModel(n int) *pb.ModelProto {
	b := newGraph()
	x := b.input("x", "N", 64, "H", "W")
	one := b.weights("one", 1)
	perm := aInts("perm", 0, 1, 3, 2)
	for b.n < n {
		switch b.n % 5 {
		case 0:
			x = b.op("Relu", []string{x})
		case 1:
			x = b.op("Add", []string{x, one})
		case 2:
			x = b.op("Transpose", []string{x}, perm)
		case 3:
			s := b.op("Shape", []string{x})
			x = b.op("Reshape", []string{x, s})
		}
	}
	b.output(x)
	return b.model(13)
}

func BenchmarkInfer100k(b *testing.B) {
	m := bigModel(100_000)
	b.ResetTimer()
	for range b.N {
		if _, err := infer.Proto(b.Context(), m, "", nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestInferLargeModel: inference of a 100,000-node model takes under a
// second (the budget the project set for inference: BenchmarkInfer100k measures it); the
// test only fails far above, as test machines are shared.
func TestInferLargeModel(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	m := bigModel(100_000)
	start := time.Now()
	r, err := infer.Proto(t.Context(), m, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	out, _ := r.Value(m.Graph.Output[0].GetName())
	if out.String() != "float[N,64,H,W]" && out.String() != "float[N,64,W,H]" {
		t.Errorf("the output is %v", out)
	}
	t.Logf("%d nodes inferred in %v", len(m.Graph.Node), took)
	if took > 20*time.Second {
		t.Errorf("inference of %d nodes took %v", len(m.Graph.Node), took)
	}
}
