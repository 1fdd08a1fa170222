package bench_test

import (
	"context"
	"math"
	"testing"

	"github.com/onnxshape/onnxshape/bench"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/tensor"
)

// Every network of the zoo, scaled down, loads and runs in both engines,
// with finite outputs of the declared shapes that agree within a float
// tolerance (bench/ort compares them with onnxruntime at scale 4).
func TestZooRuns(t *testing.T) {
	for _, z := range bench.Zoo() {
		t.Run(z.Name, func(t *testing.T) {
			m, inputs, err := z.Build(8)
			if err != nil {
				t.Fatal(err)
			}
			b, err := onnx.EncodeModel(m)
			if err != nil {
				t.Fatal(err)
			}
			model, err := graph.LoadBytes(b, "")
			if err != nil {
				t.Fatal(err)
			}
			in := map[string]tensor.Value{}
			for _, x := range inputs {
				in[x.Name] = x.Value
			}
			fast, err := model.Run(context.Background(), in, nil)
			if err != nil {
				t.Fatal(err)
			}
			ref, err := model.Run(context.Background(), in, &graph.RunOptions{Engine: graph.EngineReference})
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range model.Outputs() {
				f, _ := fast.Map()[o.Name].(*tensor.Tensor).Float64s()
				r, _ := ref.Map()[o.Name].(*tensor.Tensor).Float64s()
				if len(f) == 0 || len(f) != len(r) {
					t.Fatalf("output %s: %d and %d elements", o.Name, len(f), len(r))
				}
				for i := range f {
					if math.IsNaN(f[i]) || math.IsInf(f[i], 0) || math.Abs(f[i]-r[i]) > 1e-3+1e-3*math.Abs(r[i]) {
						t.Fatalf("output %s element %d: fast %v, reference %v", o.Name, i, f[i], r[i])
					}
				}
			}
		})
	}
}
