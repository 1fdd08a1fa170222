package profile

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// liftInitializers makes every initializer of m a graph input, so that
// the check no longer knows its value, and returns the values to run the
// model with: the initializers' and zeros for the other inputs.
func liftInitializers(t *testing.T, m *pb.ModelProto) (*pb.ModelProto, map[string]tensor.Value) {
	t.Helper()
	m = proto.Clone(m).(*pb.ModelProto)
	g := m.GetGraph()
	in := map[string]tensor.Value{}
	for _, vi := range g.GetInput() {
		k := knownFromType(vi.GetType())
		x, err := tensor.New(k.dtype, k.dims...)
		if err != nil {
			t.Fatalf("input %q: %v", vi.GetName(), err)
		}
		in[vi.GetName()] = x
	}
	for _, tp := range g.GetInitializer() {
		x, err := onnx.TensorFromProto(tp, "")
		if err != nil {
			t.Fatal(err)
		}
		in[tp.GetName()] = x
		g.Input = append(g.Input, valueInfo(tp.GetName(), tensorType(x.DataType(), int64s(x.Shape()))))
	}
	g.Initializer = nil
	return m, in
}

func int64s(dims []int) []int64 {
	out := make([]int64, len(dims))
	for i, d := range dims {
		out[i] = int64(d)
	}
	return out
}

// TestRunTime checks, for every row checked while the model runs, that its
// violating model with every parameter made a graph input is not inside
// (check leaves the rule to run time, listing it, or decides it from
// types and shapes), and that running it under the profile with the
// violating values is refused with the row's id, by either engine.
func TestRunTime(t *testing.T) {
	for _, r := range Rules {
		if r.RunTime == "" {
			continue
		}
		t.Run(strings.ReplaceAll(r.Key(), " ", "_"), func(t *testing.T) {
			m, in := liftInitializers(t, violations[r.Key()].model(t))
			rep := CheckProto(m, "")
			switch rep.Verdict() {
			case VerdictInside:
				t.Fatalf("inside with the parameters known only at run time:\n%s", rep)
			case VerdictUndecided:
				var deferred []string
				for _, d := range rep.Deferred {
					deferred = append(deferred, d.Rules...)
				}
				if !slices.Contains(deferred, r.ID) {
					t.Errorf("undecided, but %s is not among the rules left to run time %q:\n%s", r.ID, deferred, rep)
				}
			}
			model, err := graph.FromProto(m, "")
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			for _, e := range []graph.Engine{graph.EngineDefault, graph.EngineFast, graph.EngineReference} {
				_, err = model.Run(context.Background(), in, &graph.RunOptions{Profile: ops.ProfileSONNX, Engine: e})
				var opErr *ops.Error
				if !errors.As(err, &opErr) || opErr.Rule != r.ID {
					t.Errorf("run under the profile, %s engine: got %v, want an error of rule %s", e, err, r.ID)
				}
			}
		})
	}
}
