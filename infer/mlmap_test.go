package infer_test

import (
	"testing"

	"github.com/onnxshape/onnxshape/infer"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// The map values of ai.onnx.ml through inference: a map input read by
// DictVectorizer, CastMap's [1, max_map], ZipMap's sequence of maps.
func TestMapValues(t *testing.T) {
	mapType := func(key, value tensor.DataType) *pb.TypeProto {
		return &pb.TypeProto{Value: &pb.TypeProto_MapType{MapType: &pb.TypeProto_Map{KeyType: proto.Int32(int32(key)),
			ValueType: &pb.TypeProto{Value: &pb.TypeProto_TensorType{TensorType: &pb.TypeProto_Tensor{ElemType: proto.Int32(int32(value))}}}}}}
	}
	attr := func(name string, typ pb.AttributeProto_AttributeType) *pb.AttributeProto {
		return &pb.AttributeProto{Name: proto.String(name), Type: typ.Enum()}
	}
	voc := attr("string_vocabulary", pb.AttributeProto_STRINGS)
	voc.Strings = [][]byte{[]byte("a"), []byte("b"), []byte("c")}
	labels := attr("classlabels_strings", pb.AttributeProto_STRINGS)
	labels.Strings = voc.Strings
	form, maxMap, castTo := attr("map_form", pb.AttributeProto_STRING), attr("max_map", pb.AttributeProto_INT), attr("cast_to", pb.AttributeProto_STRING)
	form.S, maxMap.I, castTo.S = []byte("SPARSE"), proto.Int64(5), []byte("TO_STRING")
	ml := func(op string, in, out string, attrs ...*pb.AttributeProto) *pb.NodeProto {
		return &pb.NodeProto{OpType: proto.String(op), Domain: proto.String("ai.onnx.ml"), Input: []string{in}, Output: []string{out}, Attribute: attrs}
	}
	x := &pb.ValueInfoProto{Name: proto.String("x")}
	declare(x, tensor.Float, 4, 3)
	m := &pb.ModelProto{IrVersion: proto.Int64(8),
		OpsetImport: []*pb.OperatorSetIdProto{{Version: proto.Int64(17)}, {Domain: proto.String("ai.onnx.ml"), Version: proto.Int64(3)}},
		Graph: &pb.GraphProto{Name: proto.String("g"),
			Node: []*pb.NodeProto{
				ml("DictVectorizer", "d", "v", voc),
				ml("ZipMap", "v", "z", labels),
				ml("CastMap", "c", "s", form, maxMap, castTo),
				ml("ZipMap", "x", "w", labels),
			},
			Input: []*pb.ValueInfoProto{{Name: proto.String("d"), Type: mapType(tensor.String, tensor.Float)},
				{Name: proto.String("c"), Type: mapType(tensor.Int64, tensor.Float)}, x},
			Output: []*pb.ValueInfoProto{{Name: proto.String("z")}, {Name: proto.String("s")}, {Name: proto.String("w")}},
		}}
	r, err := infer.Proto(t.Context(), m, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"d": "map(string,float)", "v": "float[1,3]", "z": "seq(map(string,float))",
		"s": "string[1,5]", "w": "seq(map(string,float))"} {
		if v, err := r.Value(name); err != nil || v.String() != want {
			t.Errorf("%s is %v (%v), want %s", name, v, err, want)
		}
	}
	if len(r.Problems) != 0 {
		t.Errorf("problems %v", r.Problems)
	}
}
