//go:build ort

package main

import (
	"context"
	"fmt"
	"testing"

	"github.com/onnxshape/onnxshape/infer"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// Nested control flow: infer gives every value of a model whose If branches and Loop
// bodies nest three deep the shape onnxruntime produces. Each model's
// every value of the main graph is one of its outputs (but the scalars
// size and big, which the Go binding cannot return); onnxruntime runs
// it and infer must give each output's shape exactly (no symbol left)
// where the model determines it: trip counts and conditions that are
// initializers, or folded from shapes, and branches of different ranks
// chosen by such a condition.

// loopIfLoopModel: Loop (3 trips) > If (i < 1) > Loop (2 trips). The
// inner Loop adds x to the carried value twice and scans each step out
// as [1, 3]; the If's then branch returns the inner Loop's result and
// its history flattened to [6], the else branch acc - x and Concat(acc,
// acc); the outer Loop carries acc and scans the If's second output.
func loopIfLoopModel() *pb.ModelProto {
	inner := &pb.GraphProto{Name: proto.String("inner"),
		Node: []*pb.NodeProto{
			cfNode("Add", []string{"a", "x"}, []string{"a_out"}),
			cfNode("Unsqueeze", []string{"a_out", "axis0"}, []string{"step"}),
			cfNode("Identity", []string{"c3"}, []string{"c3_out"}),
		},
		Input:  []*pb.ValueInfoProto{cfInfo("j", tensor.Int64, -1), cfInfo("c3", tensor.Bool, -1), cfInfo("a", tensor.Float)},
		Output: []*pb.ValueInfoProto{cfInfo("c3_out", tensor.Bool), cfInfo("a_out", tensor.Float), cfInfo("step", tensor.Float)}}
	then := &pb.GraphProto{Name: proto.String("then"),
		Node: []*pb.NodeProto{
			cfNode("Loop", []string{"two", "", "acc_in"}, []string{"r3", "h3"}, cfGraph("body", inner)),
			cfNode("Reshape", []string{"h3", "flat"}, []string{"h3flat"}),
		},
		Output: []*pb.ValueInfoProto{cfInfo("r3", tensor.Float), cfInfo("h3flat", tensor.Float)}}
	els := &pb.GraphProto{Name: proto.String("else"),
		Node: []*pb.NodeProto{
			cfNode("Sub", []string{"acc_in", "x"}, []string{"e"}),
			cfNode("Concat", []string{"acc_in", "acc_in"}, []string{"ee"}, &pb.AttributeProto{Name: proto.String("axis"), Type: pb.AttributeProto_INT.Enum(), I: proto.Int64(0)}),
		},
		Output: []*pb.ValueInfoProto{cfInfo("e", tensor.Float), cfInfo("ee", tensor.Float)}}
	body := &pb.GraphProto{Name: proto.String("body"),
		Node: []*pb.NodeProto{
			cfNode("Less", []string{"i", "one"}, []string{"first"}),
			cfNode("If", []string{"first"}, []string{"acc_out", "wide"}, cfGraph("then_branch", then), cfGraph("else_branch", els)),
			cfNode("Identity", []string{"cond_in"}, []string{"cond_out"}),
		},
		Input:  []*pb.ValueInfoProto{cfInfo("i", tensor.Int64, -1), cfInfo("cond_in", tensor.Bool, -1), cfInfo("acc_in", tensor.Float)},
		Output: []*pb.ValueInfoProto{cfInfo("cond_out", tensor.Bool), cfInfo("acc_out", tensor.Float), cfInfo("wide", tensor.Float)}}
	return &pb.ModelProto{IrVersion: proto.Int64(8), OpsetImport: []*pb.OperatorSetIdProto{{Domain: proto.String(""), Version: proto.Int64(16)}},
		Graph: &pb.GraphProto{Name: proto.String("loop-if-loop"),
			Node: []*pb.NodeProto{cfNode("Loop", []string{"three", "", "x"}, []string{"acc", "history"}, cfGraph("body", body))},
			Initializer: []*pb.TensorProto{cfTensor("three", tensor.Scalar(int64(3))), cfTensor("two", tensor.Scalar(int64(2))),
				cfTensor("one", tensor.Scalar(int64(1))), cfTensor("axis0", tensor.MustFromSlice([]int64{0}, 1)),
				cfTensor("flat", tensor.MustFromSlice([]int64{-1}, 1))},
			Input:  []*pb.ValueInfoProto{cfInfo("x", tensor.Float, 3)},
			Output: []*pb.ValueInfoProto{cfInfo("acc", tensor.Float), cfInfo("history", tensor.Float)}}}
}

// ifLoopIfModel: If (Size(x) > 2, folded from x's shape) > Loop (2 trips)
// > If (i < 1). The inner If returns x or -x, so the Loop scans [2, 3];
// the outer If's else branch returns x itself, of another rank, and a
// second output whose rank also depends on the branch (Unsqueeze twice
// in the then branch).
func ifLoopIfModel(bigX bool) *pb.ModelProto {
	innerThen := &pb.GraphProto{Name: proto.String("ithen"),
		Node:   []*pb.NodeProto{cfNode("Identity", []string{"x"}, []string{"it"})},
		Output: []*pb.ValueInfoProto{cfInfo("it", tensor.Float)}}
	innerElse := &pb.GraphProto{Name: proto.String("ielse"),
		Node:   []*pb.NodeProto{cfNode("Neg", []string{"x"}, []string{"ie"})},
		Output: []*pb.ValueInfoProto{cfInfo("ie", tensor.Float)}}
	body := &pb.GraphProto{Name: proto.String("body"),
		Node: []*pb.NodeProto{
			cfNode("Less", []string{"i", "one"}, []string{"first"}),
			cfNode("If", []string{"first"}, []string{"picked"}, cfGraph("then_branch", innerThen), cfGraph("else_branch", innerElse)),
			cfNode("Identity", []string{"cond_in"}, []string{"cond_out"}),
		},
		Input:  []*pb.ValueInfoProto{cfInfo("i", tensor.Int64, -1), cfInfo("cond_in", tensor.Bool, -1)},
		Output: []*pb.ValueInfoProto{cfInfo("cond_out", tensor.Bool), cfInfo("picked", tensor.Float)}}
	then := &pb.GraphProto{Name: proto.String("then"),
		Node: []*pb.NodeProto{
			cfNode("Loop", []string{"two", ""}, []string{"scanned"}, cfGraph("body", body)),
			cfNode("Unsqueeze", []string{"scanned", "axis0"}, []string{"up"}),
		},
		Output: []*pb.ValueInfoProto{cfInfo("scanned", tensor.Float), cfInfo("up", tensor.Float)}}
	els := &pb.GraphProto{Name: proto.String("else"),
		Node:   []*pb.NodeProto{cfNode("Identity", []string{"x"}, []string{"same"}), cfNode("Neg", []string{"x"}, []string{"neg"})},
		Output: []*pb.ValueInfoProto{cfInfo("same", tensor.Float), cfInfo("neg", tensor.Float)}}
	n := 3
	if !bigX {
		n = 2
	}
	return &pb.ModelProto{IrVersion: proto.Int64(8), OpsetImport: []*pb.OperatorSetIdProto{{Domain: proto.String(""), Version: proto.Int64(16)}},
		Graph: &pb.GraphProto{Name: proto.String("if-loop-if"),
			Node: []*pb.NodeProto{
				cfNode("Size", []string{"x"}, []string{"size"}),
				cfNode("Greater", []string{"size", "twoI"}, []string{"big"}),
				cfNode("If", []string{"big"}, []string{"y", "z"}, cfGraph("then_branch", then), cfGraph("else_branch", els)),
			},
			Initializer: []*pb.TensorProto{cfTensor("two", tensor.Scalar(int64(2))), cfTensor("twoI", tensor.Scalar(int64(2))),
				cfTensor("one", tensor.Scalar(int64(1))), cfTensor("axis0", tensor.MustFromSlice([]int64{0}, 1))},
			Input:  []*pb.ValueInfoProto{cfInfo("x", tensor.Float, n)},
			Output: []*pb.ValueInfoProto{cfInfo("y", tensor.Float), cfInfo("z", tensor.Float)}}}
}

func TestInferNestedControlFlowMatchesORT(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    *pb.ModelProto
		x    *tensor.Tensor
	}{
		{"loop-if-loop", loopIfLoopModel(), tensor.MustFromSlice([]float32{1, 2, 3}, 3)},
		{"if-loop-if then", ifLoopIfModel(true), tensor.MustFromSlice([]float32{1, 2, 3}, 3)},
		{"if-loop-if else", ifLoopIfModel(false), tensor.MustFromSlice([]float32{1, 2}, 2)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model, err := onnx.EncodeModel(tc.m)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, o := range tc.m.GetGraph().GetOutput() {
				names = append(names, o.GetName())
			}
			c := &diffCase{name: tc.name, inputs: []diffInput{{"x", tc.x}}}
			theirs, err := runORTModel(model, c, names, nil)
			if err != nil {
				t.Fatalf("onnxruntime: %v", err)
			}
			ours, err := runOurs(model, c)
			if err != nil {
				t.Fatalf("onnxshape: %v", err)
			}
			res, err := infer.Bytes(context.Background(), model, "", nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range res.Problems {
				t.Errorf("infer: %v", p)
			}
			for i, n := range names {
				v, err := res.Value(n)
				if err != nil {
					t.Errorf("%s: infer has no value", n)
					continue
				}
				shape, static := v.Static()
				want := theirs[i].Shape()
				if !static || fmt.Sprint(shape) != fmt.Sprint(want) {
					t.Errorf("%s: infer gives %v, onnxruntime %v", n, v, want)
				}
				if got := ours[n].Shape(); fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("%s: onnxshape runs to %v, onnxruntime %v", n, got, want)
				}
			}
		})
	}
}

// growingLoopModel: a Loop of 3 trips carrying a [3] and b [1]: a_out =
// Concat(a[1:], b), b_out = Concat(b, b). a keeps its length 3 in the
// first trip only (3, 4, 7), which inferring the body once from the
// initial values would take for every trip.
func growingLoopModel() *pb.ModelProto {
	axis := &pb.AttributeProto{Name: proto.String("axis"), Type: pb.AttributeProto_INT.Enum(), I: proto.Int64(0)}
	body := &pb.GraphProto{Name: proto.String("body"),
		Node: []*pb.NodeProto{
			cfNode("Slice", []string{"a_in", "start1", "end"}, []string{"tail"}),
			cfNode("Concat", []string{"tail", "b_in"}, []string{"a_out"}, axis),
			cfNode("Concat", []string{"b_in", "b_in"}, []string{"b_out"}, axis),
			cfNode("Identity", []string{"cond_in"}, []string{"cond_out"}),
		},
		Input:  []*pb.ValueInfoProto{cfInfo("i", tensor.Int64, -1), cfInfo("cond_in", tensor.Bool, -1), cfInfo("a_in", tensor.Float), cfInfo("b_in", tensor.Float)},
		Output: []*pb.ValueInfoProto{cfInfo("cond_out", tensor.Bool), cfInfo("a_out", tensor.Float), cfInfo("b_out", tensor.Float)}}
	return &pb.ModelProto{IrVersion: proto.Int64(8), OpsetImport: []*pb.OperatorSetIdProto{{Domain: proto.String(""), Version: proto.Int64(16)}},
		Graph: &pb.GraphProto{Name: proto.String("growing"),
			Node: []*pb.NodeProto{cfNode("Loop", []string{"three", "", "x", "b0"}, []string{"a", "b"}, cfGraph("body", body))},
			Initializer: []*pb.TensorProto{cfTensor("three", tensor.Scalar(int64(3))), cfTensor("b0", tensor.MustFromSlice([]float32{5}, 1)),
				cfTensor("start1", tensor.MustFromSlice([]int64{1}, 1)), cfTensor("end", tensor.MustFromSlice([]int64{1 << 40}, 1))},
			Input:  []*pb.ValueInfoProto{cfInfo("x", tensor.Float, 3)},
			Output: []*pb.ValueInfoProto{cfInfo("a", tensor.Float), cfInfo("b", tensor.Float)}}}
}

// A loop-carried value whose shape changes from trip to trip: infer may
// leave its length unknown but must not state a wrong one.
func TestInferGrowingLoopIsNotWrong(t *testing.T) {
	m := growingLoopModel()
	model, err := onnx.EncodeModel(m)
	if err != nil {
		t.Fatal(err)
	}
	c := &diffCase{name: "growing", inputs: []diffInput{{"x", tensor.MustFromSlice([]float32{1, 2, 3}, 3)}}}
	theirs, err := runORTModel(model, c, []string{"a", "b"}, nil)
	if err != nil {
		t.Fatalf("onnxruntime: %v", err)
	}
	res, err := infer.Bytes(context.Background(), model, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range []string{"a", "b"} {
		v, _ := res.Value(n)
		want := theirs[i].Shape()
		if v.Rank() != len(want) {
			t.Errorf("%s: infer gives %v, onnxruntime %v", n, v, want)
			continue
		}
		for k, d := range v.Shape {
			if x, ok := d.Value(); ok && int(x) != want[k] {
				t.Errorf("%s: infer gives %v, onnxruntime %v", n, v, want)
			}
		}
		t.Logf("%s: infer %v, onnxruntime %v", n, v, want)
	}
}
