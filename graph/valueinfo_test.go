package graph_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"reflect"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

func TestValueInfoMetadata(t *testing.T) {
	dim := func(v int64) *pb.TensorShapeProto_Dimension {
		return &pb.TensorShapeProto_Dimension{Value: &pb.TensorShapeProto_Dimension_DimValue{DimValue: v}}
	}
	param := func(p string) *pb.TensorShapeProto_Dimension {
		return &pb.TensorShapeProto_Dimension{Value: &pb.TensorShapeProto_Dimension_DimParam{DimParam: p}}
	}
	tensorOf := func(dt tensor.DataType, dims ...*pb.TensorShapeProto_Dimension) *pb.TypeProto {
		tt := &pb.TypeProto_Tensor{ElemType: proto.Int32(int32(dt))}
		if dims != nil {
			tt.Shape = &pb.TensorShapeProto{Dim: dims}
		}
		return &pb.TypeProto{Value: &pb.TypeProto_TensorType{TensorType: tt}}
	}
	for _, tc := range []struct {
		name   string
		typ    *pb.TypeProto
		kind   graph.Kind
		elem   tensor.DataType
		dims   []graph.Dim
		ok     bool
		static []int
		str    string
	}{
		{"no type", nil, graph.KindUnknown, tensor.Undefined, nil, false, nil, "(no type)"},
		{"no shape", tensorOf(tensor.Float), graph.KindTensor, tensor.Float, nil, false, nil, "tensor(float)"},
		{"rank unknown", tensorOf(tensor.Int64), graph.KindTensor, tensor.Int64, nil, false, nil, "tensor(int64)"},
		{"static", tensorOf(tensor.Uint8, dim(1), dim(3)), graph.KindTensor, tensor.Uint8,
			[]graph.Dim{graph.Const(1), graph.Const(3)}, true, []int{1, 3}, "tensor(uint8)[1,3]"},
		{"symbolic", tensorOf(tensor.Float, param("N"), dim(3), &pb.TensorShapeProto_Dimension{}, param("W")), graph.KindTensor, tensor.Float,
			[]graph.Dim{graph.Sym("N"), graph.Const(3), graph.Sym("?"), graph.Sym("W")}, true, nil, "tensor(float)[N,3,?,W]"},
		{"sequence", &pb.TypeProto{Value: &pb.TypeProto_SequenceType{SequenceType: &pb.TypeProto_Sequence{ElemType: tensorOf(tensor.Int8, dim(2))}}},
			graph.KindSequence, tensor.Int8, []graph.Dim{graph.Const(2)}, true, []int{2}, "seq(tensor(int8)[2])"},
		{"optional", &pb.TypeProto{Value: &pb.TypeProto_OptionalType{OptionalType: &pb.TypeProto_Optional{ElemType: tensorOf(tensor.Bool)}}},
			graph.KindOptional, tensor.Bool, nil, false, nil, "optional(tensor(bool))"},
		{"map", &pb.TypeProto{Value: &pb.TypeProto_MapType{MapType: &pb.TypeProto_Map{KeyType: proto.Int32(int32(tensor.Int64)), ValueType: tensorOf(tensor.Float)}}},
			graph.KindMap, tensor.Float, nil, false, nil, "map(int64,tensor(float))"},
		{"sequence of maps", &pb.TypeProto{Value: &pb.TypeProto_SequenceType{SequenceType: &pb.TypeProto_Sequence{ElemType: &pb.TypeProto{Value: &pb.TypeProto_MapType{MapType: &pb.TypeProto_Map{KeyType: proto.Int32(int32(tensor.String)), ValueType: tensorOf(tensor.Float)}}}}}},
			graph.KindSequence, tensor.Float, nil, false, nil, "seq(map(string,tensor(float)))"},
		{"sparse", &pb.TypeProto{Value: &pb.TypeProto_SparseTensorType{SparseTensorType: &pb.TypeProto_SparseTensor{ElemType: proto.Int32(int32(tensor.Float))}}},
			graph.KindOther, tensor.Undefined, nil, false, nil, "sparse_tensor(float)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vi := graph.NewValueInfo("v", tc.typ)
			if got := vi.Describe(); got != tc.str {
				t.Errorf("Describe = %q, want %q", got, tc.str)
			}
			if tc.typ != nil {
				if want := onnx.DescribeType(tc.typ); vi.Type.String() != want {
					t.Errorf("Type.String = %q, onnx.DescribeType says %q", vi.Type.String(), want)
				}
			}
			if vi.TypeProto() != tc.typ {
				t.Error("TypeProto is not the declaration")
			}
			if got := vi.Kind(); got != tc.kind {
				t.Errorf("Kind = %v, want %v", got, tc.kind)
			}
			if got := vi.ElemType(); got != tc.elem {
				t.Errorf("ElemType = %v, want %v", got, tc.elem)
			}
			dims, ok := vi.Shape()
			if ok != tc.ok || (ok && !reflect.DeepEqual(dims, tc.dims)) {
				t.Errorf("Shape = %v, %v, want %v, %v", dims, ok, tc.dims, tc.ok)
			}
			static, ok := vi.StaticShape()
			if ok != (tc.static != nil) || !reflect.DeepEqual(static, tc.static) {
				t.Errorf("StaticShape = %v, %v, want %v", static, ok, tc.static)
			}
		})
	}
	// A rank-0 shape is declared, with no dims.
	rank0 := tensorOf(tensor.Float)
	rank0.GetTensorType().Shape = &pb.TensorShapeProto{}
	vi := graph.NewValueInfo("s", rank0)
	if vi.Type.String() != "tensor(float)[]" || !vi.Type.Ranked {
		t.Errorf("rank 0: %q", vi.Type)
	}
	if dims, ok := vi.Shape(); !ok || len(dims) != 0 {
		t.Errorf("rank 0: %v, %v", dims, ok)
	}
	if got := fmt.Sprint(graph.Sym("H"), graph.Const(4), graph.Sym("?")); got != "H 4 ?" {
		t.Errorf("Dim strings: %q", got)
	}
}

func TestResult(t *testing.T) {
	m := unsqueezeChain().load(t)
	x := tensor.MustFromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	res, err := m.Run(context.Background(), map[string]tensor.Value{"x": x}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := res.Tensor("b")
	if err != nil || !tensor.SameShape(b.Shape(), []int{1, 2, 3, 1}) {
		t.Fatalf("Tensor(b) = %v, %v", b, err)
	}
	if got := fmt.Sprint(res.Names()); got != "[b a]" || res.Len() != 2 {
		t.Errorf("Names = %s, Len = %d: want the model's order [b a]", got, res.Len())
	}
	if _, err := res.Tensor("B"); err == nil || !strings.Contains(err.Error(), `no output "B" (it has "b", "a")`) {
		t.Errorf("misspelled name: %v", err)
	}
	if res.At(0) != tensor.Value(b) || len(res.Map()) != 2 || res.Map()["b"] != tensor.Value(b) {
		t.Errorf("At(0), Map() do not hold output b")
	}
	seq := graph.NewResult([]string{"s"}, []tensor.Value{&tensor.Sequence{ElemType: tensor.Float}})
	if _, err := seq.Tensor("s"); err == nil || !strings.Contains(err.Error(), "not a tensor") {
		t.Errorf("sequence: %v", err)
	}
	// A nil tensor input is an input error, not a panic.
	_, err = m.Run(context.Background(), map[string]tensor.Value{"x": nil}, nil)
	var ie *graph.InputError
	if !errors.As(err, &ie) || ie.Name != "x" {
		t.Errorf("nil input: %v", err)
	}
}

// Read an input's declared element type and shape, symbolic dimensions by
// name, then run the model on tensors and read an output by name.
func ExampleModel_Run_tensors() {
	m, err := graph.Load("../examples/letterbox.onnx")
	if err != nil {
		log.Fatal(err)
	}
	in := m.Inputs()[0]
	dims, _ := in.Shape()
	fmt.Println(in.Name, in.ElemType(), dims)

	res, err := m.Run(context.Background(), map[string]tensor.Value{
		in.Name: tensor.MustNew(tensor.Uint8, 1, 6, 8, 3),
	}, nil)
	if err != nil {
		log.Fatal(err)
	}
	pixels, err := res.Tensor("pixels")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(pixels.Shape())
	// Output:
	// image uint8 [1 6 8 3]
	// [1 4 12 12]
}

func TestModelInfo(t *testing.T) {
	p := unsqueezeChain().proto()
	p.ProducerName = proto.String("pytorch")
	p.MetadataProps = []*pb.StringStringEntryProto{{Key: proto.String("author"), Value: proto.String("me")}}
	m, err := graph.FromProto(p, "")
	if err != nil {
		t.Fatal(err)
	}
	info := m.Info()
	if info.IRVersion != 8 || info.Producer != "pytorch" || info.GraphName != "test" || info.Opsets[""] != 13 || info.Metadata["author"] != "me" {
		t.Errorf("Info = %+v", info)
	}
	var nilModel *graph.Model
	if got := nilModel.Info(); got.IRVersion != 0 || got.Opsets != nil {
		t.Errorf("nil model: %+v", got)
	}
	if got := (&graph.Model{}).Info(); got.GraphName != "" {
		t.Errorf("zero model: %+v", got)
	}
}
