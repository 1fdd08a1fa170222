package graph_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/tensor"
)

// FuzzLoadBytes feeds arbitrary bytes to LoadBytes and runs what loads on
// zero-filled inputs of the declared shapes: either may fail, neither may
// panic or hang.
func FuzzLoadBytes(f *testing.F) {
	if b, err := onnx.EncodeModel(unsqueezeChain().proto()); err == nil {
		f.Add(b)
	}
	if b, err := onnx.EncodeModel(movementModel().proto()); err == nil {
		f.Add(b)
	}
	if b, err := onnx.EncodeModel(transposeChain(6, 2, 3, 4).proto()); err == nil {
		f.Add(b)
	}
	if b, err := os.ReadFile("../examples/letterbox.onnx"); err == nil {
		f.Add(b)
	}
	// Small models of the compute, control-flow and attention operators
	// (a convnet, a voice detector's If, an attention block, the ai.onnx.ml
	// pipelines), for the fuzzer to mutate.
	seeds, _ := filepath.Glob("../infer/testdata/*.onnx")
	ml, _ := filepath.Glob("../bench/ort/testdata/*.onnx")
	for _, name := range append(seeds, ml...) {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	dir := f.TempDir() // empty: external data finds nothing
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := graph.LoadBytes(b, dir)
		if err != nil {
			return
		}
		inputs := map[string]tensor.Value{}
		for _, in := range m.Inputs() {
			shape, ok := in.StaticShape()
			if in.Kind() != graph.KindTensor || !ok {
				return
			}
			n := 1
			for _, d := range shape {
				if n *= d; n > 4096 {
					return // keep the inputs small
				}
			}
			x, err := tensor.New(in.ElemType(), shape...)
			if err != nil {
				return
			}
			inputs[in.Name] = x
		}
		o := &graph.RunOptions{MaxTensorBytes: 1 << 20, Threads: 1, MaxRunBytes: 4 << 20}
		m.Run(context.Background(), inputs, o)
		// Twice with a pool: whatever the graph, the first run's outputs,
		// not released, stay intact while the second run recycles, and
		// the second's release without error.
		pool := graph.NewPool()
		o.Pool = pool
		first, err := m.Run(context.Background(), inputs, o)
		if err != nil {
			return
		}
		kept := map[string]*tensor.Tensor{}
		for name, v := range first.Map() {
			if t, ok := v.(*tensor.Tensor); ok {
				kept[name] = t.Clone()
			}
		}
		if second, err := m.Run(context.Background(), inputs, o); err == nil {
			for _, v := range second.Map() {
				if err := pool.Release(v); err != nil {
					t.Fatalf("releasing an output: %v", err)
				}
			}
		}
		// And twice more without a pool, the nodes prepared by now and
		// their headers reused: the outputs held still do not change.
		for range 2 {
			m.Run(context.Background(), inputs, &graph.RunOptions{MaxTensorBytes: 1 << 20, Threads: 1, MaxRunBytes: 4 << 20})
		}
		for name, c := range kept {
			if !first.Map()[name].(*tensor.Tensor).Equal(c) {
				t.Fatalf("output %s changed under another run", name)
			}
		}
	})
}
