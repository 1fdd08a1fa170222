package graph_test

import (
	"context"
	"errors"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// constantBranch is an If whose then branch computes a [4,3] weight from
// constants alone (a Slice of the model's initializer w and a Constant,
// joined by Concat, as exporters reorder gates) and adds it to x; the else
// branch returns x.
func constantBranch() modelSpec {
	then := &pb.GraphProto{Name: proto.String("then"),
		Node: []*pb.NodeProto{
			node("c", "Constant", nil, []string{"c"}, tensorAttr("value", floats("c", []int64{2, 3}, 10, 20, 30, 40, 50, 60))),
			node("starts", "Constant", nil, []string{"starts"}, tensorAttr("value", int64s("s", []int64{1}, 1))),
			node("ends", "Constant", nil, []string{"ends"}, tensorAttr("value", int64s("e", []int64{1}, 3))),
			node("slice", "Slice", []string{"w", "starts", "ends"}, []string{"part"}),
			node("concat", "Concat", []string{"part", "c"}, []string{"weight"}, intAttr("axis", 0)),
			node("add", "Add", []string{"weight", "x"}, []string{"t_out"}),
		},
		Output: []*pb.ValueInfoProto{untyped("t_out", tensor.Float)}}
	els := &pb.GraphProto{Name: proto.String("else"),
		Node:   []*pb.NodeProto{node("id", "Identity", []string{"x"}, []string{"e_out"})},
		Output: []*pb.ValueInfoProto{untyped("e_out", tensor.Float)}}
	return modelSpec{opset: 13,
		nodes:   []*pb.NodeProto{node("if", "If", []string{"cond"}, []string{"y"}, graphAttr("then_branch", then), graphAttr("else_branch", els))},
		inits:   []*pb.TensorProto{floats("w", []int64{3, 3}, 1, 2, 3, 4, 5, 6, 7, 8, 9)},
		inputs:  []*pb.ValueInfoProto{scalarInfo("cond", tensor.Bool), info("x", tensor.Float, 4, 3)},
		outputs: []*pb.ValueInfoProto{untyped("y", tensor.Float)},
	}
}

// What a branch computes from constants is computed once at load and
// kept by the model (PackedBytes counts the Concat's copy); both engines
// give the same values, run after run, and a run whose cap
// on one tensor the folded value passes fails as the node would.
func TestConstantsFoldedAtLoad(t *testing.T) {
	m := constantBranch().load(t)
	if m.PackedBytes() < 4*3*4 {
		t.Errorf("PackedBytes = %d, want the folded [4,3] weight counted", m.PackedBytes())
	}
	x := tensor.MustFromSlice([]float32{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 4, 3)
	want := tensor.MustFromSlice([]float32{5, 6, 7, 8, 9, 10, 11, 21, 31, 41, 51, 61}, 4, 3)
	in := map[string]tensor.Value{"cond": tensor.Scalar(true), "x": x}
	pool := graph.NewPool()
	for _, o := range []*graph.RunOptions{nil, {Engine: graph.EngineReference}, {Threads: 1}, {Pool: pool}, {Pool: pool}} {
		for range 2 {
			out, err := m.Run(context.Background(), in, o)
			if err != nil {
				t.Fatalf("%+v: %v", o, err)
			}
			wantTensor(t, out.Map()["y"], want)
		}
	}
	// The [4,3] weight (48 bytes) passes a 40-byte cap on one tensor.
	if _, err := m.Run(context.Background(), in, &graph.RunOptions{MaxTensorBytes: 40}); !errors.Is(err, graph.ErrLimit) {
		t.Errorf("under a 40-byte tensor cap: %v, want a limit", err)
	}
	// The model's own values are left as they were.
	out, err := m.Run(context.Background(), in, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantTensor(t, out.Map()["y"], want)
}
