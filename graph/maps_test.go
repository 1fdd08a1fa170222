package graph_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// Maps as graph inputs and outputs: the ai.onnx.ml map operators of a
// scikit-learn export (ZipMap's seq(map), DictVectorizer's map input).

func mapTypeProto(key tensor.DataType, value tensor.DataType) *pb.TypeProto {
	return &pb.TypeProto{Value: &pb.TypeProto_MapType{MapType: &pb.TypeProto_Map{KeyType: proto.Int32(int32(key)),
		ValueType: &pb.TypeProto{Value: &pb.TypeProto_TensorType{TensorType: &pb.TypeProto_Tensor{ElemType: proto.Int32(int32(value))}}}}}}
}

func mlNode(op string, in, out []string, attrs ...*pb.AttributeProto) *pb.NodeProto {
	n := node(op, op, in, out, attrs...)
	n.Domain = proto.String("ai.onnx.ml")
	return n
}

func stringsAttr(name string, v ...string) *pb.AttributeProto {
	a := &pb.AttributeProto{Name: proto.String(name), Type: pb.AttributeProto_STRINGS.Enum()}
	for _, s := range v {
		a.Strings = append(a.Strings, []byte(s))
	}
	return a
}

var mlImport = []*pb.OperatorSetIdProto{{Domain: proto.String("ai.onnx.ml"), Version: proto.Int64(3)}}

// zipMapModel is x [rows, 3] float -> ZipMap (labels 10, 20, 30) -> z.
func zipMapModel(rows int64) modelSpec {
	return modelSpec{
		imports: mlImport,
		nodes:   []*pb.NodeProto{mlNode("ZipMap", []string{"x"}, []string{"z"}, intsAttr("classlabels_int64s", 10, 20, 30))},
		inputs:  []*pb.ValueInfoProto{info("x", tensor.Float, rows, 3)},
		outputs: []*pb.ValueInfoProto{{Name: proto.String("z"), Type: &pb.TypeProto{Value: &pb.TypeProto_SequenceType{
			SequenceType: &pb.TypeProto_Sequence{ElemType: mapTypeProto(tensor.Int64, tensor.Float)}}}}},
	}
}

func TestMapOutputs(t *testing.T) {
	model := zipMapModel(2).load(t)
	if got := model.Outputs()[0].Describe(); !strings.Contains(got, "seq(map(int64,tensor(float)))") {
		t.Errorf("declared output: %s", got)
	}
	x := tensor.MustFromSlice([]float32{0.1, 0.2, 0.7, 1, 0, 0}, 2, 3)
	for _, pool := range []*graph.Pool{nil, graph.NewPool()} {
		res, err := model.Run(context.Background(), map[string]tensor.Value{"x": x}, &graph.RunOptions{Pool: pool})
		if err != nil {
			t.Fatal(err)
		}
		maps, err := res.Maps("z")
		if err != nil || len(maps) != 2 {
			t.Fatalf("Maps: %v, %v", maps, err)
		}
		if k := maps[1].Int64Keys(); len(k) != 3 || k[0] != 10 || k[2] != 30 {
			t.Errorf("keys %v", k)
		}
		if v, _ := tensor.Data[float32](maps[0].Values); v[2] != 0.7 {
			t.Errorf("values %v", v)
		}
		if _, err := res.Tensor("z"); err == nil || !strings.Contains(err.Error(), "seq(map(int64,tensor(float)))[2 items]") {
			t.Errorf("Tensor of a sequence of maps: %v", err)
		}
		if pool != nil {
			if err := pool.Release(res.Map()["z"]); err != nil {
				t.Errorf("Release: %v", err)
			}
		}
	}
}

func TestMapInputs(t *testing.T) {
	s := modelSpec{
		imports: mlImport,
		nodes:   []*pb.NodeProto{mlNode("DictVectorizer", []string{"x"}, []string{"y"}, stringsAttr("string_vocabulary", "a", "b", "c"))},
		inputs:  []*pb.ValueInfoProto{{Name: proto.String("x"), Type: mapTypeProto(tensor.String, tensor.Double)}},
		outputs: []*pb.ValueInfoProto{info("y", tensor.Double, 1, 3)},
	}
	model := s.load(t)
	if in := model.Inputs()[0]; in.Kind() != graph.KindMap || in.ElemType() != tensor.Double || in.Type.Key != tensor.String {
		t.Errorf("declared input: %s %v %v", in.Describe(), in.Kind(), in.ElemType())
	}
	x, err := tensor.MapOf([]string{"c", "a"}, []float64{3, 1})
	if err != nil {
		t.Fatal(err)
	}
	res, err := model.Run(context.Background(), map[string]tensor.Value{"x": x}, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantTensor(t, res.Map()["y"], tensor.MustFromSlice([]float64{1, 0, 3}, 1, 3))
	// What does not fit the declaration is refused before any node runs.
	i64, _ := tensor.MapOf([]int64{1}, []float64{3})
	f32, _ := tensor.MapOf([]string{"a"}, []float32{3})
	for _, c := range []struct {
		v    tensor.Value
		want string
	}{
		{tensor.MustFromSlice([]float64{1}, 1), "not a map"},
		{i64, "map keys are int64, not string"},
		{f32, "map values are float, not double"},
		{&tensor.Map{Keys: tensor.MustFromSlice([]string{"a"}, 1)}, "without keys or values"},
		{(*tensor.Map)(nil), "is a nil map"},
	} {
		_, err := model.Run(context.Background(), map[string]tensor.Value{"x": c.v}, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%T: %v, want %q", c.v, err, c.want)
		}
	}
}

// A ZipMap whose maps would pass the run's cap is refused before it makes
// them: the maps count like the tensors they hold, and their headers too.
func TestMapOutputsAreCharged(t *testing.T) {
	model := zipMapModel(20000).load(t)
	x := tensor.MustNew(tensor.Float, 20000, 3) // 240 KB in, 5 MB of maps
	_, err := model.Run(context.Background(), map[string]tensor.Value{"x": x}, &graph.RunOptions{MaxRunBytes: 1 << 20})
	if !errors.Is(err, tensor.ErrLimit) {
		t.Fatalf("ZipMap of 20000 rows under a 1 MB cap: %v", err)
	}
	if _, err := model.Run(context.Background(), map[string]tensor.Value{"x": x}, &graph.RunOptions{MaxRunBytes: 64 << 20}); err != nil {
		t.Fatalf("under a 64 MB cap: %v", err)
	}
}
