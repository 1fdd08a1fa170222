package graph_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/internal/nodeproto"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// Builders for small models written as pb structs.

func node(name, op string, in, out []string, attrs ...*pb.AttributeProto) *pb.NodeProto {
	return &pb.NodeProto{Name: proto.String(name), OpType: proto.String(op), Input: in, Output: out, Attribute: attrs}
}

func intsAttr(name string, v ...int64) *pb.AttributeProto {
	return &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_INTS.Enum(), Ints: v}
}

func intAttr(name string, v int64) *pb.AttributeProto {
	return &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_INT.Enum(), I: proto.Int64(v)}
}

func tensorAttr(name string, t *pb.TensorProto) *pb.AttributeProto {
	return &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_TENSOR.Enum(), T: t}
}

func info(name string, dt tensor.DataType, dims ...int64) *pb.ValueInfoProto {
	shape := &pb.TensorShapeProto{}
	for _, d := range dims {
		shape.Dim = append(shape.Dim, &pb.TensorShapeProto_Dimension{Value: &pb.TensorShapeProto_Dimension_DimValue{DimValue: d}})
	}
	return &pb.ValueInfoProto{Name: proto.String(name), Type: &pb.TypeProto{Value: &pb.TypeProto_TensorType{
		TensorType: &pb.TypeProto_Tensor{ElemType: proto.Int32(int32(dt)), Shape: shape}}}}
}

func int64s(name string, dims []int64, v ...int64) *pb.TensorProto {
	return &pb.TensorProto{Name: proto.String(name), Dims: dims, DataType: proto.Int32(int32(tensor.Int64)), Int64Data: v}
}

func floats(name string, dims []int64, v ...float32) *pb.TensorProto {
	return &pb.TensorProto{Name: proto.String(name), Dims: dims, DataType: proto.Int32(int32(tensor.Float)), FloatData: v}
}

type modelSpec struct {
	opset   int64
	imports []*pb.OperatorSetIdProto // extra domains
	nodes   []*pb.NodeProto
	inits   []*pb.TensorProto
	inputs  []*pb.ValueInfoProto
	outputs []*pb.ValueInfoProto
}

func (s modelSpec) proto() *pb.ModelProto {
	if s.opset == 0 {
		s.opset = 13
	}
	imports := append([]*pb.OperatorSetIdProto{{Domain: proto.String(""), Version: proto.Int64(s.opset)}}, s.imports...)
	return &pb.ModelProto{
		IrVersion:   proto.Int64(8),
		OpsetImport: imports,
		Graph: &pb.GraphProto{
			Name: proto.String("test"), Node: s.nodes, Initializer: s.inits,
			Input: s.inputs, Output: s.outputs,
		},
	}
}

func (s modelSpec) load(t *testing.T) *graph.Model {
	t.Helper()
	m, err := graph.FromProto(s.proto(), "")
	if err != nil {
		t.Fatalf("FromProto: %v", err)
	}
	return m
}

func (s modelSpec) bytes(t *testing.T) []byte {
	t.Helper()
	b, err := onnx.EncodeModel(s.proto())
	if err != nil {
		t.Fatalf("EncodeModel: %v", err)
	}
	return b
}

// unsqueezeChain is x[2,3] -> Unsqueeze(axes=[0]) -> a[1,2,3] ->
// Unsqueeze(axes=[3]) -> b[1,2,3,1], with the nodes listed consumer first.
func unsqueezeChain() modelSpec {
	return modelSpec{
		nodes: []*pb.NodeProto{
			node("second", "Unsqueeze", []string{"a", "axes3"}, []string{"b"}),
			node("first", "Unsqueeze", []string{"x", "axes0"}, []string{"a"}),
		},
		inits:   []*pb.TensorProto{int64s("axes0", []int64{1}, 0), int64s("axes3", []int64{1}, 3)},
		inputs:  []*pb.ValueInfoProto{info("x", tensor.Float, 2, 3)},
		outputs: []*pb.ValueInfoProto{info("b", tensor.Float, 1, 2, 3, 1), info("a", tensor.Float, 1, 2, 3)},
	}
}

func wantTensor(t *testing.T, got tensor.Value, want *tensor.Tensor) {
	t.Helper()
	g, ok := got.(*tensor.Tensor)
	if !ok {
		t.Fatalf("got %v, want a tensor", got)
	}
	if !g.Equal(want) {
		t.Fatalf("got %v %v, want %v %v", g.Describe(), g.Bytes(), want.Describe(), want.Bytes())
	}
}

func TestRunOutOfOrderNodesAndSeveralOutputs(t *testing.T) {
	m := unsqueezeChain().load(t)
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	out, err := m.Run(context.Background(), map[string]tensor.Value{"x": x}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if out.Len() != 2 {
		t.Fatalf("got %d outputs, want 2", out.Len())
	}
	wantTensor(t, out.Map()["b"], tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 1, 2, 3, 1))
	wantTensor(t, out.Map()["a"], tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 1, 2, 3))
	if x.Rank() != 2 {
		t.Fatalf("input changed shape: %v", x.Shape())
	}
}

func TestInputsOutputs(t *testing.T) {
	m := unsqueezeChain().load(t)
	var names []string
	for _, v := range m.Inputs() {
		names = append(names, "in:"+v.Name)
	}
	for _, v := range m.Outputs() {
		names = append(names, "out:"+v.Name)
	}
	if got := strings.Join(names, " "); got != "in:x out:b out:a" {
		t.Fatalf("got %s", got)
	}
	if m.Proto().GetGraph().GetName() != "test" {
		t.Fatal("Proto does not return the model")
	}
}

func TestInitializerListedAsInput(t *testing.T) {
	// Before IR 4, initializers were listed among the inputs too: they
	// are then defaults the caller may override.
	s := unsqueezeChain()
	s.inputs = append(s.inputs, info("axes3", tensor.Int64, 1))
	m := s.load(t)
	if len(m.Inputs()) != 1 {
		t.Fatalf("Inputs() = %v, want only x", m.Inputs())
	}
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	out, err := m.Run(context.Background(), map[string]tensor.Value{"x": x}, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantTensor(t, out.Map()["b"], tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 1, 2, 3, 1))
	out, err = m.Run(context.Background(), map[string]tensor.Value{"x": x, "axes3": tensor.MustFromSlice([]int64{1})}, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantTensor(t, out.Map()["b"], tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 1, 1, 2, 3))
}

func TestGraphOutputIsInput(t *testing.T) {
	s := unsqueezeChain()
	s.outputs = append(s.outputs, info("x", tensor.Float, 2, 3))
	m := s.load(t)
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	out, err := m.Run(context.Background(), map[string]tensor.Value{"x": x}, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantTensor(t, out.Map()["x"], x)
}

func TestLoadBytes(t *testing.T) {
	s := unsqueezeChain()
	m, err := graph.LoadBytes(s.bytes(t), "")
	if err != nil {
		t.Fatal(err)
	}
	out, err := m.Run(context.Background(), map[string]tensor.Value{"x": tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantTensor(t, out.Map()["a"], tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 1, 2, 3))
}

func TestVersionResolution(t *testing.T) {
	// Unsqueeze has since-versions 1, 11, 13, ...: opset 12 is served by
	// version 11, which takes axes as an attribute.
	s := modelSpec{
		opset:   12,
		nodes:   []*pb.NodeProto{node("u", "Unsqueeze", []string{"x"}, []string{"y"}, intsAttr("axes", 1))},
		inputs:  []*pb.ValueInfoProto{info("x", tensor.Float, 2)},
		outputs: []*pb.ValueInfoProto{info("y", tensor.Float, 2, 1)},
	}
	m := s.load(t)
	out, err := m.Run(context.Background(), map[string]tensor.Value{"x": tensor.MustFromSlice([]float32{7, 8})}, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantTensor(t, out.Map()["y"], tensor.MustFromSlice([]float32{7, 8}, 2, 1))

	// The domain may also be spelled ai.onnx.
	p := s.proto()
	p.OpsetImport[0].Domain = proto.String("ai.onnx")
	p.Graph.Node[0].Domain = proto.String("ai.onnx")
	if _, err := graph.FromProto(p, ""); err != nil {
		t.Fatal(err)
	}
}

func TestDecodeNode(t *testing.T) {
	np := node("n", "Pad", []string{"x"}, []string{"y", "", "z"},
		intAttr("axis", -2), intsAttr("pads", 1, 2),
		&pb.AttributeProto{Name: proto.String("mode"), Type: pb.AttributeProto_STRING.Enum(), S: []byte("reflect")},
		&pb.AttributeProto{Name: proto.String("value"), Type: pb.AttributeProto_FLOAT.Enum(), F: proto.Float32(1.5)},
		&pb.AttributeProto{Name: proto.String("scales"), Type: pb.AttributeProto_FLOATS.Enum(), Floats: []float32{2, 3}},
		&pb.AttributeProto{Name: proto.String("names"), Type: pb.AttributeProto_STRINGS.Enum(), Strings: [][]byte{[]byte("a"), []byte("b")}},
		tensorAttr("value_t", floats("", []int64{2}, 1, 2)),
		// IR version 1 files set no type: it is read from the field set.
		&pb.AttributeProto{Name: proto.String("old"), I: proto.Int64(4)},
	)
	n, err := nodeproto.Decode(np, 11, "")
	if err != nil {
		t.Fatal(err)
	}
	if n.Name != "n" || n.OpType != "Pad" || n.Version != 11 || n.NumOutputs != 3 {
		t.Fatalf("got %+v", n)
	}
	got := fmt.Sprintln(n.Attrs["axis"].Int, n.Attrs["pads"].Ints, n.Attrs["mode"].String, n.Attrs["value"].Float,
		n.Attrs["scales"].Floats, n.Attrs["names"].Strings, n.Attrs["old"].Type, n.Attrs["old"].Int)
	if want := "-2 [1 2] reflect 1.5 [2 3] [a b] int 4\n"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	wantTensor(t, n.Attrs["value_t"].Tensor, tensor.MustFromSlice([]float32{1, 2}))

	for _, tc := range []struct {
		attr *pb.AttributeProto
		want string
	}{
		{&pb.AttributeProto{Name: proto.String("g"), Type: pb.AttributeProto_GRAPH.Enum()}, "attribute g: is of type graph but holds no graph"},
		{&pb.AttributeProto{Name: proto.String("gs"), Type: pb.AttributeProto_GRAPHS.Enum(), Graphs: []*pb.GraphProto{{}}}, "attribute gs: is of type graphs"},
		{&pb.AttributeProto{Name: proto.String("r"), RefAttrName: proto.String("outer")}, `attribute r: refers to function attribute "outer"`},
		{&pb.AttributeProto{Name: proto.String("e")}, "attribute e: has no type and no value"},
		{&pb.AttributeProto{Name: proto.String("t"), Type: pb.AttributeProto_TENSOR.Enum()}, "attribute t: is of type tensor but holds no tensor"},
		{&pb.AttributeProto{Type: pb.AttributeProto_INT.Enum()}, "an attribute has no name"},
	} {
		_, err := nodeproto.Decode(node("n", "Pad", nil, nil, tc.attr), 11, "")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got error %v, want %q", err, tc.want)
		}
	}
	_, err = nodeproto.Decode(node("n", "Pad", nil, nil, intAttr("a", 1), intAttr("a", 2)), 11, "")
	if err == nil || !strings.Contains(err.Error(), "attribute a is set twice") {
		t.Errorf("duplicate attribute: got %v", err)
	}
}

// TestLoadErrors checks that each broken model is refused at load with an
// error that says what is wrong and where.
func TestLoadErrors(t *testing.T) {
	edit := func(f func(*modelSpec)) *pb.ModelProto {
		s := unsqueezeChain()
		f(&s)
		return s.proto()
	}
	for _, tc := range []struct {
		name        string
		model       *pb.ModelProto
		want        []string
		unsupported bool // the error wraps ops.ErrUnsupported
	}{
		{"missing node input", edit(func(s *modelSpec) { s.nodes[1].Input[0] = "nowhere" }),
			[]string{`node "first" (Unsqueeze-13)`, `input #0 "nowhere" is no graph input, initializer or node output`}, false},
		{"cycle", edit(func(s *modelSpec) {
			s.nodes[1].Input[0] = "c"
			s.nodes = append(s.nodes, node("third", "Unsqueeze", []string{"b", "axes0"}, []string{"c"}))
		}), []string{`cycle: node "second" (Unsqueeze) -> node "third" (Unsqueeze) -> node "first" (Unsqueeze) -> node "second" (Unsqueeze)`}, false},
		{"self loop", edit(func(s *modelSpec) { s.nodes[0].Input[0] = "b" }),
			[]string{`cycle: node "second" (Unsqueeze) -> node "second" (Unsqueeze)`}, false},
		{"unknown operator", edit(func(s *modelSpec) { s.nodes[0].OpType = proto.String("Frobnicate") }),
			[]string{`node "second" (Frobnicate)`, "Frobnicate"}, true},
		{"domain not imported", edit(func(s *modelSpec) { s.nodes[1].Domain = proto.String("com.example") }),
			[]string{`node "first" (com.example.Unsqueeze)`, `imports no opset for domain "com.example"`}, true},
		{"operator unknown in imported domain", edit(func(s *modelSpec) {
			s.imports = []*pb.OperatorSetIdProto{{Domain: proto.String("com.example"), Version: proto.Int64(1)}}
			s.nodes[1].Domain = proto.String("com.example")
		}), []string{`node "first" (com.example.Unsqueeze)`, `domain "com.example"`}, true},
		{"no opset", func() *pb.ModelProto { p := unsqueezeChain().proto(); p.OpsetImport = nil; return p }(),
			[]string{"imports no opset"}, false},
		{"too many inputs", edit(func(s *modelSpec) { s.nodes[0].Input = append(s.nodes[0].Input, "x") }),
			[]string{`node "second" (Unsqueeze-13)`, "has 3 inputs, the operator takes 1 to 2"}, false},
		{"too many outputs", edit(func(s *modelSpec) { s.nodes[0].Output = append(s.nodes[0].Output, "b2") }),
			[]string{`node "second" (Unsqueeze-13)`, "has 2 outputs, the operator takes 1"}, false},
		{"output defined twice", edit(func(s *modelSpec) { s.nodes[0].Output[0] = "a" }),
			[]string{`node "first" (Unsqueeze)`, `output "a" is already the output of node "second" (Unsqueeze)`}, false},
		{"output overwrites input", edit(func(s *modelSpec) { s.nodes[0].Output[0] = "x" }),
			[]string{`node "second" (Unsqueeze)`, `output "x" is already the graph input`}, false},
		{"unnamed node", edit(func(s *modelSpec) { s.nodes[1].Name = nil; s.nodes[1].Input[0] = "nowhere" }),
			[]string{`node #1 (Unsqueeze-13)`, `"nowhere"`}, false},
		{"graph output never produced", edit(func(s *modelSpec) { s.outputs[0].Name = proto.String("zzz") }),
			[]string{`graph output #0 "zzz" is produced by no node`}, false},
		{"initializer data length", edit(func(s *modelSpec) { s.inits[0].Dims = []int64{3} }),
			[]string{`initializer "axes0"`}, false},
		{"initializer data type", edit(func(s *modelSpec) { s.inits[1].DataType = proto.Int32(99) }),
			[]string{`initializer "axes3"`}, false},
		{"bad tensor attribute", edit(func(s *modelSpec) {
			bad := floats("v", []int64{4}, 1)
			s.nodes[0].Attribute = append(s.nodes[0].Attribute, tensorAttr("value", bad))
		}), []string{`node "second" (Unsqueeze-13)`, "attribute value"}, false},
		{"no graph", &pb.ModelProto{}, []string{"model has no graph"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := graph.FromProto(tc.model, "")
			if err == nil {
				t.Fatal("loaded a broken model")
			}
			t.Log(err)
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if got := errors.Is(err, ops.ErrUnsupported); got != tc.unsupported {
				t.Errorf("errors.Is(err, ops.ErrUnsupported) = %v for %q", got, err)
			}
		})
	}
}

func TestLoadBytesErrors(t *testing.T) {
	good := unsqueezeChain().bytes(t)
	garbled := append([]byte{}, good...)
	for i := range garbled {
		garbled[i] ^= 0x5A
	}
	for _, tc := range []struct {
		name string
		b    []byte
	}{
		{"truncated", good[:len(good)/2]},
		{"garbled", garbled},
		{"not protobuf", []byte("this is not an ONNX model\n")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := graph.LoadBytes(tc.b, ""); err == nil {
				t.Fatal("loaded broken bytes")
			}
		})
	}
	if _, err := graph.Load("testdata/does-not-exist.onnx"); err == nil {
		t.Fatal("loaded a missing file")
	}
}

func TestRunErrors(t *testing.T) {
	m := unsqueezeChain().load(t)
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	for _, tc := range []struct {
		name   string
		inputs map[string]tensor.Value
		want   string
	}{
		{"missing input", map[string]tensor.Value{}, `input "x" (`},
		{"unknown input", map[string]tensor.Value{"x": x, "y": x}, `no input "y"`},
		{"nil input", map[string]tensor.Value{"x": (*tensor.Tensor)(nil)}, `input "x" is nil`},
		{"wrong type", map[string]tensor.Value{"x": tensor.MustFromSlice([]int64{1, 2, 3, 4, 5, 6}, 2, 3)}, `input "x"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := m.Run(context.Background(), tc.inputs, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got error %v, want %q", err, tc.want)
			}
		})
	}

	// An operator's error names the node and wraps the *ops.Error.
	s := unsqueezeChain()
	s.inits[1] = int64s("axes3", []int64{1}, 9)
	m = s.load(t)
	_, err := m.Run(context.Background(), map[string]tensor.Value{"x": x}, nil)
	var ne *graph.NodeError
	var oe *ops.Error
	if !errors.As(err, &ne) || !errors.As(err, &oe) {
		t.Fatalf("got %v, want a NodeError wrapping an ops.Error", err)
	}
	if ne.Node != "second" || ne.Index != 0 || ne.Op != "Unsqueeze" || ne.Version != 13 ||
		!strings.HasPrefix(err.Error(), `node "second" (Unsqueeze-13): Unsqueeze-13 A [C1]`) {
		t.Fatalf("got %+v: %v", ne, err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Run(ctx, map[string]tensor.Value{"x": x}, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: got %v", err)
	}
}

func TestSizeLimit(t *testing.T) {
	m := unsqueezeChain().load(t)
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	// Unsqueeze returns a view, so a tiny limit does not stop it; the
	// options must reach the kernels all the same without error. (The
	// reference engine, the profile's default, copies: the fast one is asked for.)
	o := &graph.RunOptions{Profile: ops.ProfileSONNX, MaxTensorBytes: 1, Threads: 1, Engine: graph.EngineFast}
	if _, err := m.Run(context.Background(), map[string]tensor.Value{"x": x}, o); err != nil {
		t.Fatal(err)
	}
}

func TestConcurrentRuns(t *testing.T) {
	m := unsqueezeChain().load(t)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				v := float32(g*1000 + i)
				x := tensor.MustFromSlice([]float32{v, v + 1, v + 2, v + 3, v + 4, v + 5}, 2, 3)
				out, err := m.Run(context.Background(), map[string]tensor.Value{"x": x}, nil)
				if err != nil {
					errs <- err
					return
				}
				want := tensor.MustFromSlice([]float32{v, v + 1, v + 2, v + 3, v + 4, v + 5}, 1, 2, 3, 1)
				if b, ok := out.Map()["b"].(*tensor.Tensor); !ok || !b.Equal(want) {
					errs <- fmt.Errorf("goroutine %d run %d: got %v", g, i, out.Map()["b"].Describe())
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func fromProto(p *pb.ModelProto) (*graph.Model, error) { return graph.FromProto(p, "") }
