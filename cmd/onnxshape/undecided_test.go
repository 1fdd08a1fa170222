package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/profile"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// unsqueezeAxesInputFile writes an Unsqueeze-25 model whose axes are a
// graph input, so that its output shape is known only at run time, and
// which declares that output [2,3,4,1].
func unsqueezeAxesInputFile(t *testing.T) string {
	t.Helper()
	typ := func(dt tensor.DataType, dims ...int64) *pb.TypeProto {
		shape := &pb.TensorShapeProto{}
		for _, d := range dims {
			shape.Dim = append(shape.Dim, &pb.TensorShapeProto_Dimension{Value: &pb.TensorShapeProto_Dimension_DimValue{DimValue: d}})
		}
		return &pb.TypeProto{Value: &pb.TypeProto_TensorType{TensorType: &pb.TypeProto_Tensor{ElemType: proto.Int32(int32(dt)), Shape: shape}}}
	}
	m := &pb.ModelProto{
		IrVersion:   proto.Int64(13),
		OpsetImport: []*pb.OperatorSetIdProto{{Version: proto.Int64(25)}},
		Graph: &pb.GraphProto{
			Name: proto.String("unsqueeze"),
			Node: []*pb.NodeProto{{Name: proto.String("u"), OpType: proto.String("Unsqueeze"), Input: []string{"x", "axes"}, Output: []string{"y"}}},
			Input: []*pb.ValueInfoProto{{Name: proto.String("x"), Type: typ(tensor.Float, 2, 3, 4)},
				{Name: proto.String("axes"), Type: typ(tensor.Int64, 1)}},
			Output: []*pb.ValueInfoProto{{Name: proto.String("y"), Type: typ(tensor.Float, 2, 3, 4, 1)}},
		},
	}
	b, err := onnx.EncodeModel(m)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "model.onnx")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func writeNPY(t *testing.T, v *tensor.Tensor) string {
	t.Helper()
	var b bytes.Buffer
	if err := tensor.WriteNPY(&b, v); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "in.npy")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A model whose rules read run-time values is undecided (exit 3), each
// deferred rule listed with its node; run under the profile with values
// that break a rule, it is refused with that rule's id.
func TestCheckUndecidedThenRun(t *testing.T) {
	model := unsqueezeAxesInputFile(t)
	var stdout, stderr bytes.Buffer
	if code := checkMain([]string{"--profile", "sonnx", "--json", model}, &stdout, &stderr); code != 3 {
		t.Fatalf("check: exit %d, want 3:\n%s%s", code, stdout.String(), stderr.String())
	}
	var rep struct {
		Verdict  string
		Deferred []profile.Deferred
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, d := range rep.Deferred {
		if d.Where.Kind != profile.PlaceNode || d.Where.Name != "u" || d.Where.String() != `node "u"` || d.Op != "Unsqueeze" {
			t.Errorf("deferred %+v", d)
		}
		rules = append(rules, d.Rules...)
	}
	if rep.Verdict != "undecided" || !strings.Contains(strings.Join(rules, " "), "Y [C1]") {
		t.Errorf("verdict %q, deferred rules %q", rep.Verdict, rules)
	}

	x := writeNPY(t, tensor.MustFromSlice(make([]float32, 24), 2, 3, 4))
	for _, tc := range []struct {
		axes int64
		code int
		want string
	}{
		{3, 0, "y: tensor(float)[2 3 4 1]"},
		{0, 1, `Unsqueeze-25 Y [C1] output "y" is tensor(float)[1,2,3,4] where the model declares tensor(float)[2,3,4,1]`},
	} {
		axes := writeNPY(t, tensor.MustFromSlice([]int64{tc.axes}))
		stdout.Reset()
		stderr.Reset()
		code := runMain([]string{"--profile", "sonnx", model, "--input", "x=" + x, "--input", "axes=" + axes}, &stdout, &stderr)
		if code != tc.code || !strings.Contains(stdout.String()+stderr.String(), tc.want) {
			t.Errorf("run with axes [%d]: exit %d, want %d and %q:\n%s%s", tc.axes, code, tc.code, tc.want, stdout.String(), stderr.String())
		}
	}
}
