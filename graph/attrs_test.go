package graph_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// Load refuses, in every mode, an attribute the node's operator version
// does not take and one of another type, naming it and listing the ones
// the version takes.
func TestLoadRefusesUnknownAttributes(t *testing.T) {
	x := info("x", tensor.Float, 2, 3)
	cases := []struct {
		name  string
		opset int64
		node  *pb.NodeProto
		inits []*pb.TensorProto
		want  string
	}{
		{"stray axes on Unsqueeze-13", 13,
			node("u", "Unsqueeze", []string{"x", "axes"}, []string{"y"}, intsAttr("axes", 0)),
			[]*pb.TensorProto{int64s("axes", []int64{1}, 0)},
			`node "u" (Unsqueeze-13): Unsqueeze-13 [attribute] attribute axes is not one Unsqueeze-13 takes (it takes no attribute)`},
		{"ints axis on Concat", 13,
			node("c", "Concat", []string{"x", "x"}, []string{"y"}, intsAttr("axis", 0)),
			nil,
			`node "c" (Concat-13): Concat-13 [attribute] attribute axis is of type ints, Concat-13 takes it as int`},
		{"dilations on MaxPool-8", 8,
			node("p", "MaxPool", []string{"x"}, []string{"y"}, intsAttr("kernel_shape", 1), intsAttr("dilations", 1)),
			nil,
			"attribute dilations is not one MaxPool-8 takes (it takes auto_pad (string), kernel_shape (ints), pads (ints), strides (ints), storage_order (int))"},
		{"a float for an int", 13,
			node("f", "Flatten", []string{"x"}, []string{"y"},
				&pb.AttributeProto{Name: proto.String("axis"), Type: pb.AttributeProto_FLOAT.Enum(), F: proto.Float32(1)}),
			nil,
			"attribute axis is of type float, Flatten-13 takes it as int"},
	}
	for _, c := range cases {
		spec := modelSpec{opset: c.opset, nodes: []*pb.NodeProto{c.node}, inits: c.inits,
			inputs: []*pb.ValueInfoProto{x}, outputs: []*pb.ValueInfoProto{{Name: proto.String("y")}}}
		_, err := fromProto(spec.proto())
		var opErr *ops.Error
		switch {
		case err == nil:
			t.Errorf("%s: loaded", c.name)
		case !strings.Contains(err.Error(), c.want):
			t.Errorf("%s: got %v, want %s", c.name, err, c.want)
		case !errors.As(err, &opErr) || opErr.Rule != "attribute":
			t.Errorf("%s: %v is no *ops.Error of rule attribute", c.name, err)
		}
	}
	// Unsqueeze-11 takes axes as an attribute.
	ok := modelSpec{opset: 11, nodes: []*pb.NodeProto{node("u", "Unsqueeze", []string{"x"}, []string{"y"}, intsAttr("axes", 0))},
		inputs: []*pb.ValueInfoProto{x}, outputs: []*pb.ValueInfoProto{info("y", tensor.Float, 1, 2, 3)}}
	ok.load(t)
}
