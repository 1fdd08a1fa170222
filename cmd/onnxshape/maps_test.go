package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// A scikit-learn-shaped pipeline reads a map from a .pb file and writes a
// sequence of maps as one: m (map(string, float)) -> DictVectorizer ->
// [1, 3] -> ZipMap -> z, seq(map(string, float)).
func TestRunMapsThroughPBFiles(t *testing.T) {
	strs := func(name string, v ...string) *pb.AttributeProto {
		a := &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_STRINGS.Enum()}
		for _, s := range v {
			a.Strings = append(a.Strings, []byte(s))
		}
		return a
	}
	tensorOf := func(dt tensor.DataType) *pb.TypeProto {
		return &pb.TypeProto{Value: &pb.TypeProto_TensorType{TensorType: &pb.TypeProto_Tensor{ElemType: proto.Int32(int32(dt))}}}
	}
	mapOf := func(key tensor.DataType) *pb.TypeProto {
		return &pb.TypeProto{Value: &pb.TypeProto_MapType{MapType: &pb.TypeProto_Map{KeyType: proto.Int32(int32(key)), ValueType: tensorOf(tensor.Float)}}}
	}
	ml := proto.String("ai.onnx.ml")
	m := &pb.ModelProto{
		IrVersion:   proto.Int64(8),
		OpsetImport: []*pb.OperatorSetIdProto{{Version: proto.Int64(13)}, {Domain: ml, Version: proto.Int64(3)}},
		Graph: &pb.GraphProto{
			Name: proto.String("pipeline"),
			Node: []*pb.NodeProto{
				{OpType: proto.String("DictVectorizer"), Domain: ml, Input: []string{"m"}, Output: []string{"v"},
					Attribute: []*pb.AttributeProto{strs("string_vocabulary", "a", "b", "c")}},
				{OpType: proto.String("ZipMap"), Domain: ml, Input: []string{"v"}, Output: []string{"z"},
					Attribute: []*pb.AttributeProto{strs("classlabels_strings", "x", "y", "w")}},
			},
			Input: []*pb.ValueInfoProto{{Name: proto.String("m"), Type: mapOf(tensor.String)}},
			Output: []*pb.ValueInfoProto{{Name: proto.String("z"), Type: &pb.TypeProto{Value: &pb.TypeProto_SequenceType{
				SequenceType: &pb.TypeProto_Sequence{ElemType: mapOf(tensor.String)}}}}},
		},
	}
	dir := t.TempDir()
	b, err := onnx.EncodeModel(m)
	if err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(dir, "model.onnx")
	in, err := tensor.MapOf([]string{"c", "a"}, []float32{3, 1})
	if err != nil {
		t.Fatal(err)
	}
	mb, err := onnx.EncodeValue(in, "m")
	if err != nil {
		t.Fatal(err)
	}
	input := filepath.Join(dir, "m.pb")
	for path, data := range map[string][]byte{model: b, input: mb} {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	if code := runMain([]string{model, "--input", "m=" + input, "--out", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "wrote "+filepath.Join(out, "z.pb")) {
		t.Errorf("stdout %q names no z.pb", stdout.String())
	}
	v, _, err := onnx.ReadValueWith(filepath.Join(out, "z.pb"), m.Graph.Output[0].Type, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := v.(*tensor.MapSequence)
	if len(s.Items) != 1 || strings.Join(s.Items[0].StringKeys(), ",") != "x,y,w" {
		t.Fatalf("z.pb holds %s", v.Describe())
	}
	if got, _ := tensor.ToSlice[float32](s.Items[0].Values); got[0] != 1 || got[1] != 0 || got[2] != 3 {
		t.Errorf("z.pb values %v, want [1 0 3]", got)
	}
	// A map file whose keys are not the input's.
	bad, _ := tensor.MapOf([]int64{1}, []float32{1})
	badb, _ := onnx.EncodeValue(bad, "m")
	if err := os.WriteFile(input, badb, 0o644); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	stderr.Reset()
	if code := runMain([]string{model, "--input", "m=" + input}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "its keys are int64") {
		t.Errorf("int64 keys for a map(string, float) input: exit %d, stderr %q", code, stderr.String())
	}
}
