//go:build ort

package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/onnxshape/onnxshape/bench"
	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// Control flow: an If whose branches read the model's values by
// name, and a Loop whose body holds an If reading values two scopes up and
// scans a value out, give in onnxshape (both engines) what they give in
// onnxruntime.

func cfNode(op string, in, out []string, attrs ...*pb.AttributeProto) *pb.NodeProto {
	return &pb.NodeProto{OpType: proto.String(op), Input: in, Output: out, Attribute: attrs}
}

func cfGraph(name string, g *pb.GraphProto) *pb.AttributeProto {
	return &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_GRAPH.Enum(), G: g}
}

func cfInfo(name string, dt tensor.DataType, dims ...int) *pb.ValueInfoProto {
	tt := &pb.TypeProto_Tensor{ElemType: proto.Int32(int32(dt))}
	if dims != nil {
		tt.Shape = shapeProto(dims)
	}
	if len(dims) == 1 && dims[0] < 0 { // rank 0
		tt.Shape = &pb.TensorShapeProto{}
	}
	return &pb.ValueInfoProto{Name: proto.String(name), Type: &pb.TypeProto{Value: &pb.TypeProto_TensorType{TensorType: tt}}}
}

func cfTensor(name string, t *tensor.Tensor) *pb.TensorProto {
	dims := make([]int64, t.Rank())
	for i, d := range t.Shape() {
		dims[i] = int64(d)
	}
	return &pb.TensorProto{Name: proto.String(name), Dims: dims, DataType: proto.Int32(int32(t.DataType())), RawData: append([]byte{}, t.Bytes()...)}
}

// ifModel: y = x*2 when sum(x) > 0, else -x - bias (bias an initializer
// read by the else branch).
func ifModel() *pb.ModelProto {
	then := &pb.GraphProto{Name: proto.String("then"),
		Node:   []*pb.NodeProto{cfNode("Mul", []string{"x", "two"}, []string{"t"})},
		Output: []*pb.ValueInfoProto{cfInfo("t", tensor.Float, 4)}}
	els := &pb.GraphProto{Name: proto.String("else"),
		Node:   []*pb.NodeProto{cfNode("Neg", []string{"x"}, []string{"nx"}), cfNode("Sub", []string{"nx", "bias"}, []string{"e"})},
		Output: []*pb.ValueInfoProto{cfInfo("e", tensor.Float, 4)}}
	return &pb.ModelProto{IrVersion: proto.Int64(8), OpsetImport: []*pb.OperatorSetIdProto{{Domain: proto.String(""), Version: proto.Int64(16)}},
		Graph: &pb.GraphProto{Name: proto.String("if"),
			Node: []*pb.NodeProto{
				cfNode("ReduceSum", []string{"x"}, []string{"s"}, &pb.AttributeProto{Name: proto.String("keepdims"), Type: pb.AttributeProto_INT.Enum(), I: proto.Int64(0)}),
				cfNode("Greater", []string{"s", "zero"}, []string{"c"}),
				cfNode("If", []string{"c"}, []string{"y"}, cfGraph("then_branch", then), cfGraph("else_branch", els)),
			},
			Initializer: []*pb.TensorProto{cfTensor("two", tensor.Scalar(float32(2))), cfTensor("zero", tensor.Scalar(float32(0))),
				cfTensor("bias", tensor.MustFromSlice([]float32{0.5, 1, 1.5, 2}, 4))},
			Input:  []*pb.ValueInfoProto{cfInfo("x", tensor.Float, 4)},
			Output: []*pb.ValueInfoProto{cfInfo("y", tensor.Float, 4)}}}
}

// loopModel: acc carried over 5 iterations, acc + x while i < 3 and
// acc - x after (an If in the body reading x and k from the model), each
// iteration's acc scanned out.
func loopModel() *pb.ModelProto {
	then := &pb.GraphProto{Name: proto.String("then"),
		Node:   []*pb.NodeProto{cfNode("Add", []string{"acc_in", "x"}, []string{"t"})},
		Output: []*pb.ValueInfoProto{cfInfo("t", tensor.Float, 3)}}
	els := &pb.GraphProto{Name: proto.String("else"),
		Node:   []*pb.NodeProto{cfNode("Sub", []string{"acc_in", "x"}, []string{"e"})},
		Output: []*pb.ValueInfoProto{cfInfo("e", tensor.Float, 3)}}
	body := &pb.GraphProto{Name: proto.String("body"),
		Node: []*pb.NodeProto{
			cfNode("Less", []string{"i", "k"}, []string{"early"}),
			cfNode("If", []string{"early"}, []string{"acc_out"}, cfGraph("then_branch", then), cfGraph("else_branch", els)),
			cfNode("Identity", []string{"cond_in"}, []string{"cond_out"}),
			cfNode("Identity", []string{"acc_out"}, []string{"scan_out"}),
		},
		Input:  []*pb.ValueInfoProto{cfInfo("i", tensor.Int64, -1), cfInfo("cond_in", tensor.Bool, -1), cfInfo("acc_in", tensor.Float, 3)},
		Output: []*pb.ValueInfoProto{cfInfo("cond_out", tensor.Bool, -1), cfInfo("acc_out", tensor.Float, 3), cfInfo("scan_out", tensor.Float, 3)}}
	return &pb.ModelProto{IrVersion: proto.Int64(8), OpsetImport: []*pb.OperatorSetIdProto{{Domain: proto.String(""), Version: proto.Int64(16)}},
		Graph: &pb.GraphProto{Name: proto.String("loop"),
			Node: []*pb.NodeProto{cfNode("Loop", []string{"M", "", "acc0"}, []string{"acc", "history"}, cfGraph("body", body))},
			Initializer: []*pb.TensorProto{cfTensor("M", tensor.Scalar(int64(5))), cfTensor("k", tensor.Scalar(int64(3))),
				cfTensor("acc0", tensor.MustFromSlice([]float32{10, 20, 30}, 3))},
			Input:  []*pb.ValueInfoProto{cfInfo("x", tensor.Float, 3)},
			Output: []*pb.ValueInfoProto{cfInfo("acc", tensor.Float, 3), cfInfo("history", tensor.Float, 5, 3)}}}
}

func TestControlFlowAgreesWithORT(t *testing.T) {
	cases := []struct {
		name string
		m    *pb.ModelProto
		x    *tensor.Tensor
	}{
		{"if_then", ifModel(), tensor.MustFromSlice([]float32{1, -2, 3, 0.25}, 4)},
		{"if_else", ifModel(), tensor.MustFromSlice([]float32{-1, -2, 3, -0.25}, 4)},
		{"loop_if", loopModel(), tensor.MustFromSlice([]float32{1, 2.5, -3}, 3)},
	}
	for _, tc := range cases {
		dir := filepath.Join(t.TempDir(), tc.name)
		if err := os.MkdirAll(filepath.Join(dir, "test_data_set_0"), 0o755); err != nil {
			t.Fatal(err)
		}
		b, err := onnx.EncodeModel(tc.m)
		if err != nil {
			t.Fatal(err)
		}
		in, err := onnx.EncodeValue(tc.x, "x")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "model.onnx"), b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "test_data_set_0", "input_0.pb"), in, 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := bench.ReadCase(dir)
		if err != nil {
			t.Fatal(err)
		}
		run, outs, destroy, err := newORT(c, 1)
		if err == nil {
			err = run()
		}
		if err != nil {
			destroy()
			t.Fatalf("%s: onnxruntime: %v", tc.name, err)
		}
		fast := bench.RunOurs(c, bench.RunOptions{MeasureOptions: bench.MeasureOptions{Runs: 1}, Threads: 1})
		if fast.Err != nil {
			t.Fatalf("%s: %v", tc.name, fast.Err)
		}
		if check := differential(c, fast, outs, nil); check != "same" {
			t.Errorf("%s (fast): the engines differ: %s", tc.name, check)
		}
		m, err := graph.FromProto(c.Model, dir)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := m.Run(context.Background(), c.Inputs, &graph.RunOptions{Engine: graph.EngineReference})
		if err != nil {
			t.Fatalf("%s (reference): %v", tc.name, err)
		}
		if check := differential(c, bench.Result{Outputs: ref.Map()}, outs, nil); check != "same" {
			t.Errorf("%s (reference): the engines differ: %s", tc.name, check)
		}
		for _, v := range outs {
			v.Destroy()
		}
		destroy()
	}
}
