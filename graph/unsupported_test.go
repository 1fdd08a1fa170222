package graph_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// unsupportedModel uses Frobnicate twice (once inside an If branch) and
// Twiddle once, between supported nodes.
func unsupportedModel() modelSpec {
	then := &pb.GraphProto{Name: proto.String("then"),
		Node:   []*pb.NodeProto{node("deep", "Frobnicate", []string{"x"}, []string{"t"})},
		Output: []*pb.ValueInfoProto{info("t", tensor.Float, 2, 3)}}
	els := &pb.GraphProto{Name: proto.String("else"),
		Node:   []*pb.NodeProto{node("id", "Identity", []string{"x"}, []string{"e"})},
		Output: []*pb.ValueInfoProto{info("e", tensor.Float, 2, 3)}}
	return modelSpec{
		nodes: []*pb.NodeProto{
			node("f", "Frobnicate", []string{"x"}, []string{"a"}),
			node("t", "Twiddle", []string{"a"}, []string{"b"}),
			node("if", "If", []string{"c"}, []string{"y0"}, graphAttr("then_branch", then), graphAttr("else_branch", els)),
			node("add", "Add", []string{"b", "y0"}, []string{"y"}),
		},
		inputs:  []*pb.ValueInfoProto{info("x", tensor.Float, 2, 3), info("c", tensor.Bool)},
		outputs: []*pb.ValueInfoProto{info("y", tensor.Float, 2, 3)},
	}
}

func TestUnsupportedListsEveryOperator(t *testing.T) {
	_, err := graph.FromProto(unsupportedModel().proto(), "")
	var ue *graph.UnsupportedError
	if !errors.As(err, &ue) || !errors.Is(err, graph.ErrUnsupported) {
		t.Fatalf("FromProto: %v, want an *UnsupportedError", err)
	}
	want := []graph.UnsupportedOperator{{OpType: "Frobnicate", Opset: 13, Nodes: 2}, {OpType: "Twiddle", Opset: 13, Nodes: 1}}
	if len(ue.Operators) != 2 || ue.Operators[0] != want[0] || ue.Operators[1] != want[1] {
		t.Errorf("Operators = %v, want %v", ue.Operators, want)
	}
	var ne *graph.NodeError
	if !errors.As(err, &ne) || ne.Node != "f" {
		t.Errorf("first node: %v", ne)
	}
	msg := err.Error()
	for _, s := range []string{"3 nodes", "Frobnicate (opset 13, 2 nodes)", "Twiddle (opset 13, 1 node)", `node "f"`} {
		if !strings.Contains(msg, s) {
			t.Errorf("error %q lacks %q", msg, s)
		}
	}
	if strings.Contains(msg, "\n") {
		t.Errorf("error is not one line: %q", msg)
	}
}

func TestAllowUnsupportedOpens(t *testing.T) {
	m, err := graph.FromProtoWith(unsupportedModel().proto(), "", graph.LoadOptions{AllowUnsupported: true})
	if err != nil {
		t.Fatal(err)
	}
	if in := m.Inputs(); len(in) != 2 || in[0].Name != "x" || in[1].Name != "c" {
		t.Errorf("Inputs = %v", in)
	}
	if out := m.Outputs(); len(out) != 1 || out[0].Name != "y" {
		t.Errorf("Outputs = %v", out)
	}
	if u := m.Unsupported(); len(u) != 2 || u[0].OpType != "Frobnicate" || u[0].Nodes != 2 {
		t.Errorf("Unsupported = %v", u)
	}
	x := tensor.MustNew(tensor.Float, 2, 3)
	c := tensor.MustFromSlice([]bool{true})
	_, err = m.Run(context.Background(), map[string]tensor.Value{"x": x, "c": c}, nil)
	var ue *graph.UnsupportedError
	if !errors.As(err, &ue) || len(ue.Operators) != 2 {
		t.Errorf("Run: %v, want the *UnsupportedError", err)
	}

	// A model onnxshape runs has nothing to list.
	if u := unsqueezeChain().load(t).Unsupported(); u != nil {
		t.Errorf("Unsupported of a supported model = %v", u)
	}
}

func TestOneUnsupportedNodeKeepsItsError(t *testing.T) {
	s := unsqueezeChain()
	s.nodes = append(s.nodes, node("z", "Frobnicate", []string{"x"}, []string{"z"}))
	_, err := graph.FromProto(s.proto(), "")
	if want := `node "z" (Frobnicate): unsupported operator: Frobnicate (model opset 13)`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}
