package profile

import (
	"errors"
	"slices"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// withTrainingInfo adds an (empty) training_info entry to m.
func withTrainingInfo(m *pb.ModelProto) *pb.ModelProto {
	b := protowire.AppendTag(nil, 20, protowire.BytesType)
	b = protowire.AppendBytes(b, nil)
	m.ProtoReflect().SetUnknown(b)
	return m
}

func init() {
	violations[ruleModel] = violation{model: func(t testing.TB) *pb.ModelProto { return withTrainingInfo(insideModel(t)) }}
}

// The assessor's probes of the SONNX assessment, points 2 and 3: each model is outside
// (ONNX, or MODEL for what the profile refuses of a valid model), never
// inside; the loader refuses every ONNX one in every mode, and Enforce
// (the loader under the profile) every one.
func TestValidityProbes(t *testing.T) {
	vi := func(name string, dt tensor.DataType, dims ...int64) *pb.ValueInfoProto {
		return valueInfo(name, tensorType(dt, dims))
	}
	probes := []struct {
		name string
		edit func(m *pb.ModelProto)
		rule string
	}{
		{"value_info contradicts a graph input", func(m *pb.ModelProto) {
			m.Graph.ValueInfo = append(m.Graph.ValueInfo, vi("x", tensor.Double, 2, 3))
		}, ruleONNX},
		{"value_info contradicts an initializer", func(m *pb.ModelProto) {
			m.Graph.ValueInfo = append(m.Graph.ValueInfo, vi("shape", tensor.Int64, 3))
		}, ruleONNX},
		{"value_info contradicts a graph output", func(m *pb.ModelProto) {
			m.Graph.ValueInfo = append(m.Graph.ValueInfo, vi("s", tensor.Float, 2, 4))
		}, ruleONNX},
		{"a value declared twice, first falsely", func(m *pb.ModelProto) {
			m.Graph.ValueInfo = append(m.Graph.ValueInfo, vi("u", tensor.Float, 9, 9, 9), vi("u", tensor.Float, 1, 2, 3))
		}, ruleONNX},
		{"a value declared twice, last falsely", func(m *pb.ModelProto) {
			m.Graph.ValueInfo = append(m.Graph.ValueInfo, vi("u", tensor.Float, 1, 2, 3), vi("u", tensor.Float, 9, 9, 9))
		}, ruleONNX},
		{"a graph output listed twice", func(m *pb.ModelProto) {
			m.Graph.Output = append(m.Graph.Output, vi("s", tensor.Float, 4, 2))
		}, ruleONNX},
		{"ir_version unset", func(m *pb.ModelProto) { m.IrVersion = nil }, ruleONNX},
		{"ir_version 0", func(m *pb.ModelProto) { m.IrVersion = proto.Int64(0) }, ruleONNX},
		{"ir_version 99", func(m *pb.ModelProto) { m.IrVersion = proto.Int64(99) }, ruleONNX},
		{"IR 3 with opset 25", func(m *pb.ModelProto) { m.IrVersion = proto.Int64(3) }, ruleModel},
		{"IR 3 initializer listed as a graph input", func(m *pb.ModelProto) {
			m.IrVersion = proto.Int64(3)
			m.OpsetImport[0].Version = proto.Int64(8)
			m.Graph.Input = append(m.Graph.Input, vi("axes0", tensor.Int64, 1))
		}, ruleModel},
		{"local function named Unsqueeze", func(m *pb.ModelProto) {
			m.Functions = []*pb.FunctionProto{{Name: proto.String("Unsqueeze"), Domain: proto.String(""),
				Input: []string{"a", "b"}, Output: []string{"c"},
				Node:        []*pb.NodeProto{{OpType: proto.String("Identity"), Input: []string{"a"}, Output: []string{"c"}}},
				OpsetImport: []*pb.OperatorSetIdProto{{Domain: proto.String(""), Version: proto.Int64(25)}}}}
		}, ruleONNX},
		{"training_info", func(m *pb.ModelProto) { withTrainingInfo(m) }, ruleModel},
		{"attribute with a type and no value", func(m *pb.ModelProto) {
			m.Graph.Node[1].Attribute[0].I = nil // Concat's axis, read as 0
		}, ruleONNX},
		{"negative dim_value", func(m *pb.ModelProto) {
			m.Graph.Input[0] = vi("x", tensor.Float, 2, -3)
			m.Graph.Input[0].Type.GetTensorType().Shape.Dim[1].Value = &pb.TensorShapeProto_Dimension_DimValue{DimValue: -3}
		}, ruleONNX},
	}
	for _, p := range probes {
		m := insideModel(t)
		p.edit(m)
		rep := CheckProto(m, "")
		var rules []string
		for _, f := range rep.Findings {
			rules = append(rules, f.Rule)
		}
		if rep.Verdict() != VerdictOutside || !slices.Contains(rules, p.rule) {
			t.Errorf("%s: verdict %s, rules %q, want outside under %s:\n%s", p.name, rep.Verdict(), rules, p.rule, rep)
		}
		var ve *ViolationError
		if err := enforce(m, ""); !errors.As(err, &ve) {
			t.Errorf("%s: Enforce = %v, want a *ViolationError", p.name, err)
		}
		_, err := graph.FromProto(m, "")
		if p.rule == ruleONNX && err == nil {
			t.Errorf("%s: the loader accepts a model the check puts outside ONNX", p.name)
		}
	}
}
