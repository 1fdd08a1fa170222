package graph_test

import (
	"context"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func TestParseEngine(t *testing.T) {
	for s, want := range map[string]graph.Engine{"": graph.EngineDefault, "default": graph.EngineDefault, "fast": graph.EngineFast, "reference": graph.EngineReference} {
		e, err := graph.ParseEngine(s)
		if err != nil || e != want {
			t.Errorf("ParseEngine(%q) = %v, %v; want %v", s, e, err, want)
		}
	}
	if _, err := graph.ParseEngine("slow"); err == nil {
		t.Error("ParseEngine(slow) is accepted")
	}
	if graph.EngineDefault.Resolve(ops.ProfileONNX) != graph.EngineFast ||
		graph.EngineDefault.Resolve(ops.ProfileSONNX) != graph.EngineReference ||
		graph.EngineFast.Resolve(ops.ProfileSONNX) != graph.EngineFast ||
		graph.EngineReference.Resolve(ops.ProfileONNX) != graph.EngineReference {
		t.Error("Resolve does not pick the reference engine for SONNX by default only")
	}
}

// The fast engine returns Unsqueeze's output as a view of its input; the
// reference engine copies it: the engine actually in use shows in whether
// the output shares the input's storage. The default is fast under ONNX
// rules and reference under the profile.
func TestRunSelectsTheEngine(t *testing.T) {
	m := unsqueezeChain().load(t)
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	for _, c := range []struct {
		engine   graph.Engine
		profile  ops.Profile
		wantView bool
	}{
		{graph.EngineDefault, ops.ProfileONNX, true},
		{graph.EngineDefault, ops.ProfileSONNX, false},
		{graph.EngineFast, ops.ProfileSONNX, true},
		{graph.EngineReference, ops.ProfileONNX, false},
	} {
		out, err := m.Run(context.Background(), map[string]tensor.Value{"x": x},
			&graph.RunOptions{Profile: c.profile, Engine: c.engine})
		if err != nil {
			t.Fatalf("%v under %v: %v", c.engine, c.profile, err)
		}
		a := out.Map()["a"].(*tensor.Tensor)
		wantTensor(t, a, tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 1, 2, 3))
		if a.SharesStorage(x) != c.wantView {
			t.Errorf("%v under %v: output shares the input's storage: %v", c.engine, c.profile, a.SharesStorage(x))
		}
	}
}
