package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

func TestPlan(t *testing.T) {
	const model = "../../examples/letterbox.onnx"
	m, err := graph.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	want, err := m.MemoryPlan(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := planMain([]string{model, "--steps"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	peak := want.Steps[want.PeakStep]
	head := fmt.Sprintf("peak: %d bytes (%s) at node %q (%s), step %d of %d", want.Peak, humanBytes(want.Peak), peak.Node, peak.Op, want.PeakStep+1, len(want.Steps))
	if lines[0] != head || len(lines) != 2+len(want.Steps) {
		t.Errorf("got\n%s\nwant the line %q and %d steps", stdout.String(), head, len(want.Steps))
	}

	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{model, "--shape", "image"}, 2, "want NAME=D,D,..."},
		{[]string{model, "--shape", "image=1,x"}, 2, "is not a count"},
		{[]string{model, "--shape", "nope=1"}, 1, `onnxshape plan: the model has no input "nope"`},
		{[]string{model, "--input-shape", "nope=1"}, 1, `onnxshape plan: the model has no input "nope"`},
		{[]string{model, "--input-shape", "image=1", "--shape", "image=2"}, 2, `the shape of "image" is given twice`},
		{[]string{model, "--max-run-bytes", "200"}, 1, "onnxshape plan: node"},
		{[]string{model, "--max-run-bytes", "100"}, 1, "the zero-filled inputs take 144 bytes"},
		{[]string{"does-not-exist.onnx"}, 1, "does-not-exist.onnx"},
		{nil, 2, "onnxshape plan: give one MODEL, not 0 (see onnxshape help plan)"},
	} {
		stdout.Reset()
		stderr.Reset()
		code := planMain(c.args, &stdout, &stderr)
		if code != c.code || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: exit %d, %q; want %d, %q", c.args, code, stderr.String(), c.code, c.want)
		}
	}
	if got := humanBytes(3 << 30); got != "3.0 GiB" {
		t.Errorf("humanBytes: %s", got)
	}
}

// A model onnxshape cannot run gets infer's sizes instead of a dry run.
func TestPlanOfUnsupportedModel(t *testing.T) {
	vi := func(name string) *pb.ValueInfoProto {
		return &pb.ValueInfoProto{Name: proto.String(name), Type: &pb.TypeProto{Value: &pb.TypeProto_TensorType{TensorType: &pb.TypeProto_Tensor{
			ElemType: proto.Int32(int32(tensor.Float)),
			Shape: &pb.TensorShapeProto{Dim: []*pb.TensorShapeProto_Dimension{
				{Value: &pb.TensorShapeProto_Dimension_DimParam{DimParam: "N"}},
				{Value: &pb.TensorShapeProto_Dimension_DimValue{DimValue: 4}}}},
		}}}}
	}
	mp := &pb.ModelProto{
		IrVersion:   proto.Int64(8),
		OpsetImport: []*pb.OperatorSetIdProto{{Domain: proto.String(""), Version: proto.Int64(21)}, {Domain: proto.String("com.example"), Version: proto.Int64(1)}},
		Graph: &pb.GraphProto{
			Name:  proto.String("g"),
			Input: []*pb.ValueInfoProto{vi("x")},
			Node: []*pb.NodeProto{
				{OpType: proto.String("Relu"), Input: []string{"x"}, Output: []string{"a"}},
				{OpType: proto.String("Fused"), Domain: proto.String("com.example"), Input: []string{"a"}, Output: []string{"y"}},
			},
			Output: []*pb.ValueInfoProto{vi("y")},
		},
	}
	b, err := onnx.EncodeModel(mp)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "m.onnx")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := planMain([]string{path, "--input-shape", "x=2,4"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "com.example.Fused (opset 1, 1 node)") || !strings.Contains(stdout.String(), "values of static shape: 2 of 3, 64 B in all") {
		t.Errorf("stdout %q, stderr %q", stdout.String(), stderr.String())
	}
}
