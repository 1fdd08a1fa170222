package graph_test

import (
	"context"
	"errors"
	"io/fs"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// TestErrorKinds checks the table of package graph's error kinds: every
// error is of exactly one kind, and carries what the table promises.
func TestErrorKinds(t *testing.T) {
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	good := unsqueezeChain().load(t)
	edit := func(f func(*modelSpec)) *pb.ModelProto {
		s := unsqueezeChain()
		f(&s)
		return s.proto()
	}
	load := func(p *pb.ModelProto) error { _, err := graph.FromProto(p, ""); return err }
	run := func(m *graph.Model, in map[string]tensor.Value, o *graph.RunOptions) error {
		_, err := m.Run(context.Background(), in, o)
		return err
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	refusing := func() *graph.Model {
		s := unsqueezeChain()
		s.inits[1] = int64s("axes3", []int64{1}, 9)
		return s.load(t)
	}()

	const (
		invalidModel = "invalid model"
		invalidInput = "invalid input"
		unsupported  = "unsupported"
		limit        = "limit"
		canceled     = "cancelled"
		refused      = "refused"
		internal     = "internal"
	)
	kinds := map[string]func(error) bool{
		invalidModel: func(err error) bool { return errors.Is(err, graph.ErrInvalidModel) },
		invalidInput: func(err error) bool { return errors.Is(err, graph.ErrInvalidInput) },
		unsupported:  func(err error) bool { return errors.Is(err, graph.ErrUnsupported) },
		limit:        func(err error) bool { return errors.Is(err, graph.ErrLimit) },
		canceled:     func(err error) bool { return errors.Is(err, context.Canceled) },
		internal:     func(err error) bool { return errors.Is(err, graph.ErrInternal) },
	}
	for _, tc := range []struct {
		name  string
		err   error
		kind  string
		input string // the *InputError's Name, for invalid inputs
		node  string // the *NodeError's Node, when one is promised
	}{
		{"garbage bytes", func() error { _, err := graph.LoadBytes([]byte("not a model"), ""); return err }(), invalidModel, "", ""},
		{"empty bytes", func() error { _, err := graph.LoadBytes(nil, ""); return err }(), invalidModel, "", ""},
		{"truncated file", func() error {
			b := unsqueezeChain().bytes(t)
			_, err := graph.LoadBytes(b[:len(b)/2], "")
			return err
		}(), invalidModel, "", ""},
		{"no graph", load(&pb.ModelProto{}), invalidModel, "", ""},
		{"cycle", load(edit(func(s *modelSpec) { s.nodes[0].Input[0] = "b" })), invalidModel, "", ""},
		{"dangling node input", load(edit(func(s *modelSpec) { s.nodes[1].Input[0] = "nowhere" })), invalidModel, "", "first"},
		{"attribute of another type", load(edit(func(s *modelSpec) {
			s.nodes[0].Attribute = append(s.nodes[0].Attribute, intAttr("axes", 1))
		})), invalidModel, "", "second"},
		{"unknown operator", load(edit(func(s *modelSpec) { s.nodes[0].OpType = proto.String("Frobnicate") })), unsupported, "", "second"},
		{"newer opset", load(func() *pb.ModelProto { s := unsqueezeChain(); s.opset = 999; return s.proto() }()), unsupported, "", ""},
		{"sparse initializer", load(func() *pb.ModelProto {
			p := unsqueezeChain().proto()
			p.Graph.SparseInitializer = []*pb.SparseTensorProto{{Values: floats("s", []int64{1}, 1)}}
			return p
		}()), unsupported, "", ""},
		{"nil model", run(nil, map[string]tensor.Value{"x": x}, nil), invalidModel, "", ""},
		{"zero model", run(&graph.Model{}, map[string]tensor.Value{"x": x}, nil), invalidModel, "", ""},
		{"missing input", run(good, nil, nil), invalidInput, "x", ""},
		{"unknown input", run(good, map[string]tensor.Value{"x": x, "y": x}, nil), invalidInput, "y", ""},
		{"nil input", run(good, map[string]tensor.Value{"x": nil}, nil), invalidInput, "x", ""},
		{"zero tensor input", run(good, map[string]tensor.Value{"x": &tensor.Tensor{}}, nil), invalidInput, "x", ""},
		{"input of another type", run(good, map[string]tensor.Value{"x": tensor.MustFromSlice([]int64{1, 2, 3, 4, 5, 6}, 2, 3)}, nil), invalidInput, "x", ""},
		{"input of another shape", run(good, map[string]tensor.Value{"x": tensor.MustFromSlice([]float32{1, 2, 3}, 3)}, nil), invalidInput, "x", ""},
		{"run cap", run(good, map[string]tensor.Value{"x": x},
			&graph.RunOptions{Engine: graph.EngineReference, MaxRunBytes: 1}), limit, "", "first"},
		{"cancelled", func() error { _, err := good.Run(cancelled, map[string]tensor.Value{"x": x}, nil); return err }(), canceled, "", "first"},
		{"operator refusal", run(refusing, map[string]tensor.Value{"x": x}, nil), refused, "", "second"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.err == nil {
				t.Fatal("no error")
			}
			t.Log(tc.err)
			for k, is := range kinds {
				if got := is(tc.err); got != (k == tc.kind) {
					t.Errorf("is %s: %v, want %v", k, got, k == tc.kind)
				}
			}
			var oe *ops.Error
			// Model and limit errors may come from an operator too.
			if got := errors.As(tc.err, &oe); got != (tc.kind == refused) && tc.kind != invalidModel && tc.kind != limit {
				t.Errorf("errors.As(*ops.Error) = %v", got)
			}
			var ie *graph.InputError
			if errors.As(tc.err, &ie) != (tc.input != "") || (ie != nil && ie.Name != tc.input) {
				t.Errorf("InputError %+v, want the name %q", ie, tc.input)
			}
			var ne *graph.NodeError
			if tc.node != "" && (!errors.As(tc.err, &ne) || ne.Node != tc.node) {
				t.Errorf("NodeError %+v, want node %q", ne, tc.node)
			}
		})
	}
}

// TestUnsupportedIsOneKind checks that the unsupported sentinels of ops,
// onnx and tensor match each other's errors.
func TestUnsupportedIsOneKind(t *testing.T) {
	_, opsErr := ops.Lookup("", "Frobnicate", 13)
	_, onnxErr := onnx.TensorFromProto(&pb.TensorProto{DataType: proto.Int32(1), Dims: []int64{1},
		FloatData: []float32{1}, Segment: &pb.TensorProto_Segment{}}, "")
	for _, err := range []error{opsErr, onnxErr} {
		for _, target := range []error{ops.ErrUnsupported, onnx.ErrUnsupported, tensor.ErrUnsupported, graph.ErrUnsupported} {
			if !errors.Is(err, target) {
				t.Errorf("errors.Is(%q, %q) is false", err, target)
			}
		}
		if errors.Is(err, ops.ErrLimit) || errors.Is(err, graph.ErrInvalidModel) {
			t.Errorf("%q is of another kind too", err)
		}
	}
	if !errors.Is(ops.ErrLimit, tensor.ErrLimit) || errors.Is(tensor.ErrLimit, tensor.ErrUnsupported) {
		t.Error("the limit kinds are not one, or match unsupported")
	}
}

// TestLoadMissingFileKeepsFSError checks that an unreadable file is an
// I/O error, not an invalid model.
func TestLoadMissingFileKeepsFSError(t *testing.T) {
	_, err := graph.Load("testdata/does-not-exist.onnx")
	if !errors.Is(err, fs.ErrNotExist) || errors.Is(err, graph.ErrInvalidModel) {
		t.Fatalf("got %v", err)
	}
}
