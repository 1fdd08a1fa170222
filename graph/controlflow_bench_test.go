package graph_test

import (
	"context"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// BenchmarkControlFlow is the fixed cost of each control-flow construct,
// in pooled runs at one thread: identity is a model of one Identity (the
// cost of a run, to subtract), if the same Identity as the branch of an
// If, steps the Identity and the Add of loop100's body as the model's own
// nodes, loop100 a Loop of 100 iterations of that Identity and Add (of two
// scalars), loop100outer the same adding a model input rather than an
// initializer, loop100inif loop100 as an If's branch, loop100scan
// loop100 scanning the sum out, scan100 a Scan of 100 steps adding a row
// of two to a state and scanning it out.
func BenchmarkControlFlow(b *testing.B) {
	branch := func(name string) *pb.GraphProto {
		return &pb.GraphProto{Name: proto.String(name),
			Node:   []*pb.NodeProto{node("id", "Identity", []string{"x"}, []string{name + "_y"})},
			Output: []*pb.ValueInfoProto{untyped(name+"_y", tensor.Float)}}
	}
	identity := modelSpec{opset: 13,
		nodes:   []*pb.NodeProto{node("id", "Identity", []string{"x"}, []string{"y"})},
		inputs:  []*pb.ValueInfoProto{scalarInfo("c", tensor.Bool), info("x", tensor.Float, 2)},
		outputs: []*pb.ValueInfoProto{untyped("y", tensor.Float)}}
	ifSpec := identity
	ifSpec.nodes = []*pb.NodeProto{node("if", "If", []string{"c"}, []string{"y"}, graphAttr("then_branch", branch("then")), graphAttr("else_branch", branch("else")))}
	ifIn := map[string]tensor.Value{"c": tensor.Scalar(true), "x": tensor.MustNew(tensor.Float, 2)}

	loop := foreverLoop()
	loop.nodes[0].Input[0] = "M"
	loop.inputs = append(loop.inputs, scalarInfo("M", tensor.Int64))
	loopIn := map[string]tensor.Value{"M": tensor.Scalar(int64(100)), "cond": tensor.Scalar(true), "v0": tensor.Scalar(float32(0))}
	loopScan := foreverLoop()
	loopScan.nodes[0].Input[0] = "M"
	loopScan.nodes[0].Output = append(loopScan.nodes[0].Output, "vs")
	loopScan.inputs = append(loopScan.inputs, scalarInfo("M", tensor.Int64))
	loopScan.outputs = append(loopScan.outputs, untyped("vs", tensor.Float))
	body := proto.Clone(loopScan.nodes[0].Attribute[0].G).(*pb.GraphProto)
	body.Node = append(body.Node, node("copy", "Identity", []string{"v_out"}, []string{"v_scan"}))
	body.Output = append(body.Output, untyped("v_scan", tensor.Float))
	loopScan.nodes[0] = node("loop", "Loop", loopScan.nodes[0].Input, loopScan.nodes[0].Output, graphAttr("body", body))

	scanIn := map[string]tensor.Value{"s0": tensor.MustNew(tensor.Float, 2), "x": tensor.MustNew(tensor.Float, 100, 2)}

	// steps is the body's two nodes as a model's own: the cost of its
	// kernels and of two of the run's steps, for an iteration's overhead.
	steps := loop
	steps.nodes = []*pb.NodeProto{node("keep", "Identity", []string{"cond"}, []string{"c"}),
		node("add", "Add", []string{"v0", "one"}, []string{"v"})}
	// loopOuter's body adds a value of the model (an input, not an
	// initializer) instead of the initializer one.
	loopOuter := foreverLoop()
	loopOuter.nodes[0].Input[0] = "M"
	loopOuter.inputs = append(loopOuter.inputs, scalarInfo("M", tensor.Int64), scalarInfo("step", tensor.Float))
	outerBody := proto.Clone(loopOuter.nodes[0].Attribute[0].G).(*pb.GraphProto)
	outerBody.Node[1].Input[1] = "step"
	loopOuter.nodes[0] = node("loop", "Loop", loopOuter.nodes[0].Input, loopOuter.nodes[0].Output, graphAttr("body", outerBody))
	outerIn := map[string]tensor.Value{"M": tensor.Scalar(int64(100)), "cond": tensor.Scalar(true), "v0": tensor.Scalar(float32(0)), "step": tensor.Scalar(float32(1))}
	// loopInIf is loop100 as the then branch of an If.
	loopInIf := loop
	loopBranch := &pb.GraphProto{Name: proto.String("then"), Node: loop.nodes,
		Output: []*pb.ValueInfoProto{untyped("v", tensor.Float)}}
	elseBranch := &pb.GraphProto{Name: proto.String("else"),
		Node:   []*pb.NodeProto{node("id", "Identity", []string{"v0"}, []string{"else_v"})},
		Output: []*pb.ValueInfoProto{untyped("else_v", tensor.Float)}}
	loopInIf.nodes = []*pb.NodeProto{node("if", "If", []string{"cond"}, []string{"v"}, graphAttr("then_branch", loopBranch), graphAttr("else_branch", elseBranch))}

	for _, c := range []struct {
		name string
		spec modelSpec
		in   map[string]tensor.Value
	}{
		{"identity", identity, ifIn},
		{"if", ifSpec, ifIn},
		{"steps", steps, loopIn},
		{"loop100", loop, loopIn},
		{"loop100outer", loopOuter, outerIn},
		{"loop100inif", loopInIf, loopIn},
		{"loop100scan", loopScan, loopIn},
		{"scan100", scanSum(false), scanIn},
	} {
		b.Run(c.name, func(b *testing.B) {
			m, err := graph.FromProto(c.spec.proto(), "")
			if err != nil {
				b.Fatal(err)
			}
			pool := graph.NewPool()
			o := &graph.RunOptions{Pool: pool, Threads: 1}
			b.ReportAllocs()
			for b.Loop() {
				out, err := m.Run(context.Background(), c.in, o)
				if err != nil {
					b.Fatal(err)
				}
				for i := range out.Len() {
					if err := pool.Release(out.At(i)); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
