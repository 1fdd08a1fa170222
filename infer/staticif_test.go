package infer_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/infer"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// declared is a value_info of a float tensor; a string dimension is
// symbolic.
func declared(name string, dims ...any) *pb.ValueInfoProto {
	b := newGraph()
	b.input(name, dims...)
	return b.g.Input[0]
}

func node(op, name string, in []string, out string, attrs ...*pb.AttributeProto) *pb.NodeProto {
	return &pb.NodeProto{OpType: proto.String(op), Name: proto.String(name), Input: in, Output: []string{out}, Attribute: attrs}
}

func aGraph(name string, g *pb.GraphProto) *pb.AttributeProto {
	return &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_GRAPH.Enum(), G: g}
}

// vadModel is shaped like silero VAD v5/v6: the main graph's If chooses a
// branch by the sample rate sr, an input, so that neither branch is known
// to run; the 8 kHz branch tests its input's rank (Size of Shape, equal to
// 2) and an inner If takes the branch that test selects. The exporter
// traced 256-sample chunks and declared what it saw: the inner If's dead
// branch (Unsqueeze) declares a rank its output never has, and its live
// branch declares [1,256], which a 512-sample chunk contradicts. With
// srConst, sr is a constant 16000 instead of an input.
func vadModel(srConst bool) *pb.ModelProto {
	b := newGraph()
	x := b.input("x", 1, "S")
	var sr string
	if srConst {
		sr = b.scalar("sr", 16000)
	} else {
		sr = "sr"
		b.g.Input = append(b.g.Input, &pb.ValueInfoProto{Name: proto.String(sr), Type: &pb.TypeProto{Value: &pb.TypeProto_TensorType{
			TensorType: &pb.TypeProto_Tensor{ElemType: proto.Int32(int32(tensor.Int64)), Shape: &pb.TensorShapeProto{}}}}})
	}
	is16k := b.op("Equal", []string{sr, b.scalar("rate16k", 16000)})

	dead := &pb.GraphProto{Name: proto.String("unsqueeze"),
		Node:      []*pb.NodeProto{node("Unsqueeze", "rnn/Unsqueeze", []string{x, "axes0"}, "rnn/Unsqueeze_out")},
		Output:    []*pb.ValueInfoProto{{Name: proto.String("rnn/Unsqueeze_out")}},
		ValueInfo: []*pb.ValueInfoProto{declared("rnn/Unsqueeze_out", 1, 256)}}
	live := &pb.GraphProto{Name: proto.String("identity"),
		Node:      []*pb.NodeProto{node("Identity", "rnn/Identity", []string{x}, "rnn/Identity_out")},
		Output:    []*pb.ValueInfoProto{{Name: proto.String("rnn/Identity_out")}},
		ValueInfo: []*pb.ValueInfoProto{declared("rnn/Identity_out", 1, 256)}}
	axes, err := onnx.TensorToProto(tensor.MustFromSlice([]int64{0}), "axes0")
	if err != nil {
		panic(err)
	}
	branch8k := &pb.GraphProto{Name: proto.String("8k"),
		Initializer: []*pb.TensorProto{axes},
		Node: []*pb.NodeProto{
			node("Shape", "rnn/Shape", []string{x}, "rnn/Shape_out"),
			node("Size", "rnn/Size", []string{"rnn/Shape_out"}, "rnn/Size_out"),
			node("Constant", "rnn/Two", nil, "rnn/two", &pb.AttributeProto{Name: proto.String("value"),
				Type: pb.AttributeProto_TENSOR.Enum(), T: mustProto(tensor.Scalar(int64(2)))}),
			node("Equal", "rnn/Equal", []string{"rnn/Size_out", "rnn/two"}, "rnn/Equal_out"),
			node("Not", "rnn/Not", []string{"rnn/Equal_out"}, "rnn/Not_out"),
			node("If", "rnn/If", []string{"rnn/Not_out"}, "rnn/If_out", aGraph("then_branch", dead), aGraph("else_branch", live)),
		},
		Output: []*pb.ValueInfoProto{{Name: proto.String("rnn/If_out")}}}
	branch16k := &pb.GraphProto{Name: proto.String("16k"),
		Node:   []*pb.NodeProto{node("Identity", "16k/Identity", []string{x}, "16k/out")},
		Output: []*pb.ValueInfoProto{{Name: proto.String("16k/out")}}}
	y := b.op("If", []string{is16k}, aGraph("then_branch", branch16k), aGraph("else_branch", branch8k))
	b.output(y)
	return b.model(13)
}

// TestStaticIf: an If whose condition a rank test decides is inferred
// through the branch it takes only (the dead branch's contradicted
// declaration is never reported); a declaration contradicted inside a
// branch that may not run is a Note naming that branch, which is no
// failure; a contradiction in a graph that surely runs is.
func TestStaticIf(t *testing.T) {
	shapes := func(s int64) *infer.Options {
		return &infer.Options{InputShapes: map[string][]graph.Dim{"x": {graph.Const(1), graph.Const(s)}}}
	}
	for _, fold := range []bool{false, true} {
		run := func(m *pb.ModelProto, opt *infer.Options) *infer.Result {
			t.Helper()
			if fold {
				_, r, _, err := infer.FoldProto(t.Context(), m, "", opt)
				if err != nil {
					t.Fatal(err)
				}
				return r
			}
			r, err := infer.Proto(t.Context(), m, "", opt)
			if err != nil {
				t.Fatal(err)
			}
			return r
		}
		// 256 samples: what the exporter saw; no problem at all, though the
		// dead branch contradicts its declaration.
		if r := run(vadModel(false), shapes(256)); len(r.Problems) != 0 || r.Failed() {
			t.Errorf("fold %v, 256 samples: problems %v", fold, r.Problems)
		}
		// 512 samples: the 8 kHz branch, which may not run, contradicts
		// [1,256]: a note.
		r := run(vadModel(false), shapes(512))
		if len(r.Problems) != 1 || r.Failed() {
			t.Fatalf("fold %v, 512 samples: problems %v (failed %v), want one note", fold, r.Problems, r.Failed())
		}
		p := r.Problems[0]
		if p.Kind != infer.Note || p.Node != "rnn/Identity" || p.Branch != "If_2's else_branch" ||
			!strings.Contains(p.String(), "declared float[1,256], inferred float[1,512] (only if If_2's else_branch runs") {
			t.Errorf("fold %v: the note is %+v: %s", fold, p, p)
		}
		// A constant sample rate: the 8 kHz branch is dead, nothing in it
		// is reported, and the output is the 16 kHz branch's.
		r = run(vadModel(true), shapes(512))
		if len(r.Problems) != 0 {
			t.Errorf("fold %v, constant rate: problems %v", fold, r.Problems)
		}
		if v, err := r.Value("If_2_out0"); err != nil || v.String() != "float[1,512]" {
			t.Errorf("fold %v, constant rate: the output is %v (%v)", fold, v, err)
		}
		// The same contradiction where the graph surely runs: a Conflict,
		// a failure.
		m := vadModel(false)
		m.Graph.Output[0] = declared("If_2_out0", 1, 256)
		m.Graph.ValueInfo = append(m.Graph.ValueInfo, declared("x_copy", 1, 256))
		m.Graph.Node = append(m.Graph.Node, node("Identity", "copy", []string{"x"}, "x_copy"))
		r = run(m, shapes(512))
		conflicts := 0
		for _, p := range r.Problems {
			if p.Kind == infer.Conflict {
				conflicts++
			}
		}
		if conflicts == 0 || !r.Failed() {
			t.Errorf("fold %v: a contradiction in the main graph gives %v (failed %v)", fold, r.Problems, r.Failed())
		}
	}
}

// TestVADModelFile: testdata/vad_if.onnx, which the command's tests read,
// is the model vadModel builds.
func TestVADModelFile(t *testing.T) {
	b, err := onnx.EncodeModel(vadModel(false))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "vad_if.onnx")
	if *update {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	} else if old, err := os.ReadFile(path); err != nil || !bytes.Equal(old, b) {
		t.Errorf("%s is not the model this test builds: go test ./infer -run TestVADModelFile -update", path)
	}
}
