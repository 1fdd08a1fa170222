package graph_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// An Attention whose K and V have no key gives zeros, in both engines: a
// second head's offset into the empty K panicked in the fast engine
// (found by bench/ort's registry sweep: double Q [1 1 2] of two heads,
// K and V [1 0 2]).
func TestAttentionNoKeysRuns(t *testing.T) {
	in := func(name string, shape ...int) *pb.ValueInfoProto {
		return onnx.TensorValueInfo(name, tensor.Double, shape)
	}
	heads := func(name string) *pb.AttributeProto {
		return &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_INT.Enum(), I: proto.Int64(2)}
	}
	m := &pb.ModelProto{IrVersion: proto.Int64(9), OpsetImport: []*pb.OperatorSetIdProto{{Domain: proto.String(""), Version: proto.Int64(23)}},
		Graph: &pb.GraphProto{Name: proto.String("g"),
			Node: []*pb.NodeProto{{OpType: proto.String("Attention"), Input: []string{"q", "k", "v"}, Output: []string{"y"},
				Attribute: []*pb.AttributeProto{heads("q_num_heads"), heads("kv_num_heads")}}},
			Input:  []*pb.ValueInfoProto{in("q", 1, 1, 2), in("k", 1, 0, 2), in("v", 1, 0, 2)},
			Output: []*pb.ValueInfoProto{{Name: proto.String("y")}}}}
	b, err := onnx.EncodeModel(m)
	if err != nil {
		t.Fatal(err)
	}
	model, err := graph.LoadBytes(b, "")
	if err != nil {
		t.Fatal(err)
	}
	feeds := map[string]tensor.Value{"q": tensor.MustFromSlice([]float64{0.25, 0.5}, 1, 1, 2),
		"k": tensor.MustNew(tensor.Double, 1, 0, 2), "v": tensor.MustNew(tensor.Double, 1, 0, 2)}
	for _, e := range []graph.Engine{graph.EngineFast, graph.EngineReference} {
		res, err := model.Run(context.Background(), feeds, &graph.RunOptions{Engine: e, Threads: 1})
		if err != nil {
			t.Fatalf("engine %v: %v", e, err)
		}
		y, err := res.Tensor("y")
		if err != nil {
			t.Fatal(err)
		}
		got, _ := y.Float64s()
		if fmt.Sprint(y.Shape(), got) != "[1 1 2] [0 0]" {
			t.Errorf("engine %v: y %v %v, want [1 1 2] [0 0]", e, y.Shape(), got)
		}
	}
}

// A query whose keys are all masked out while its scores hold an infinity
// (Q holding -Inf): the reference adds -inf to +inf (NaN) as the spec's
// mask addition does and gives NaN; the fast engine skips masked keys and
// gives the fully masked row's zeros. Found by the registry sweep
// (float16 Q [1 2 2 2] with a -Inf, mask [1 1 0 0]).
func TestAttentionMaskedRowWithInfinity(t *testing.T) {
	in := func(name string, dt tensor.DataType, shape ...int) *pb.ValueInfoProto {
		return onnx.TensorValueInfo(name, dt, shape)
	}
	m := &pb.ModelProto{IrVersion: proto.Int64(9), OpsetImport: []*pb.OperatorSetIdProto{{Domain: proto.String(""), Version: proto.Int64(23)}},
		Graph: &pb.GraphProto{Name: proto.String("g"),
			Node:   []*pb.NodeProto{{OpType: proto.String("Attention"), Input: []string{"q", "k", "v", "m"}, Output: []string{"y"}}},
			Input:  []*pb.ValueInfoProto{in("q", tensor.Float, 1, 1, 1, 2), in("k", tensor.Float, 1, 1, 2, 2), in("v", tensor.Float, 1, 1, 2, 1), in("m", tensor.Bool, 1, 2)},
			Output: []*pb.ValueInfoProto{{Name: proto.String("y")}}}}
	b, err := onnx.EncodeModel(m)
	if err != nil {
		t.Fatal(err)
	}
	model, err := graph.LoadBytes(b, "")
	if err != nil {
		t.Fatal(err)
	}
	inf := float32(math.Inf(1))
	// scores: 1*1 + -inf*1 = -inf, 1*1 + -inf*-1 = +inf; masked: -inf and NaN.
	feeds := map[string]tensor.Value{"q": tensor.MustFromSlice([]float32{1, -inf}, 1, 1, 1, 2),
		"k": tensor.MustFromSlice([]float32{1, 1, 1, -1}, 1, 1, 2, 2), "v": tensor.MustFromSlice([]float32{1, 2}, 1, 1, 2, 1),
		"m": tensor.MustFromSlice([]bool{false, false}, 1, 2)}
	var got [2]float64
	for i, e := range []graph.Engine{graph.EngineFast, graph.EngineReference} {
		res, err := model.Run(context.Background(), feeds, &graph.RunOptions{Engine: e, Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		y, _ := res.Tensor("y")
		v, _ := y.Float64s()
		got[i] = v[0]
	}
	if !math.IsNaN(got[0]) || !math.IsNaN(got[1]) {
		t.Errorf("fast %v, reference %v: want NaN from both", got[0], got[1])
	}
}
