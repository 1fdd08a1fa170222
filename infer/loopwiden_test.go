package infer_test

import (
	"context"
	"testing"

	"github.com/onnxshape/onnxshape/infer"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// A Loop whose carried a keeps its length in the first trip only (a_out =
// Concat(a[1:], b) with b doubling each trip: lengths 3, 4, 7 from a [3]
// and b [1]) must not be inferred as [3]: its length is left a symbol, as
// is b's, and a Loop whose carried values keep their shapes still gets
// them exactly (onnxruntime gives a [7] and b [8]; bench/ort
// TestInferGrowingLoopIsNotWrong).
func TestLoopCarriedShapeThatChanges(t *testing.T) {
	node := func(op string, in, out []string, attrs ...*pb.AttributeProto) *pb.NodeProto {
		return &pb.NodeProto{OpType: proto.String(op), Input: in, Output: out, Attribute: attrs}
	}
	info := func(name string, dt tensor.DataType, dims ...int) *pb.ValueInfoProto {
		return onnx.TensorValueInfo(name, dt, dims)
	}
	i64 := func(name string, v ...int64) *pb.TensorProto {
		return &pb.TensorProto{Name: proto.String(name), DataType: proto.Int32(int32(tensor.Int64)), Dims: []int64{int64(len(v))}, Int64Data: v}
	}
	axis := &pb.AttributeProto{Name: proto.String("axis"), Type: pb.AttributeProto_INT.Enum(), I: proto.Int64(0)}
	for _, grow := range []bool{true, false} {
		bOut := node("Concat", []string{"b_in", "b_in"}, []string{"b_out"}, axis)
		if !grow {
			bOut = node("Neg", []string{"b_in"}, []string{"b_out"})
		}
		body := &pb.GraphProto{Name: proto.String("body"),
			Node: []*pb.NodeProto{
				node("Slice", []string{"a_in", "start1", "end"}, []string{"tail"}),
				node("Concat", []string{"tail", "b_in"}, []string{"a_out"}, axis),
				bOut,
				node("Identity", []string{"cond_in"}, []string{"cond_out"}),
			},
			Input: []*pb.ValueInfoProto{info("i", tensor.Int64), info("cond_in", tensor.Bool),
				{Name: proto.String("a_in")}, {Name: proto.String("b_in")}},
			Output: []*pb.ValueInfoProto{{Name: proto.String("cond_out")}, {Name: proto.String("a_out")}, {Name: proto.String("b_out")}}}
		m := &pb.ModelProto{IrVersion: proto.Int64(8), OpsetImport: []*pb.OperatorSetIdProto{{Domain: proto.String(""), Version: proto.Int64(16)}},
			Graph: &pb.GraphProto{Name: proto.String("growing"),
				Node: []*pb.NodeProto{node("Loop", []string{"three", "", "x", "b0"}, []string{"a", "b"},
					&pb.AttributeProto{Name: proto.String("body"), Type: pb.AttributeProto_GRAPH.Enum(), G: body})},
				Initializer: []*pb.TensorProto{{Name: proto.String("three"), DataType: proto.Int32(int32(tensor.Int64)), Int64Data: []int64{3}},
					{Name: proto.String("b0"), DataType: proto.Int32(int32(tensor.Float)), Dims: []int64{1}, FloatData: []float32{5}},
					i64("start1", 1), i64("end", 1<<40)},
				Input:  []*pb.ValueInfoProto{info("x", tensor.Float, 3)},
				Output: []*pb.ValueInfoProto{{Name: proto.String("a")}, {Name: proto.String("b")}}}}
		res, err := infer.Proto(context.Background(), m, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range res.Problems {
			t.Errorf("grow=%v: %v", grow, p)
		}
		a, _ := res.Value("a")
		b, _ := res.Value("b")
		_, aStatic := a.Static()
		_, bStatic := b.Static()
		if a.Rank() != 1 || b.Rank() != 1 || aStatic != !grow || bStatic != !grow {
			t.Errorf("grow=%v: a %v, b %v", grow, a, b)
		}
		if s, _ := a.Static(); !grow && (len(s) != 1 || s[0] != 3) {
			t.Errorf("a %v, want [3]", a)
		}
	}
}
