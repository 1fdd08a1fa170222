package onnx

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

func mapTypeOf(key, value tensor.DataType) *pb.TypeProto {
	return &pb.TypeProto{Value: &pb.TypeProto_MapType{MapType: &pb.TypeProto_Map{KeyType: ptr(int32(key)), ValueType: tensorType(value)}}}
}

// The files in testdata/maps were written by python3-onnx (MapProto and
// numpy_helper.from_list, as onnx.numpy_helper.from_dict builds a map):
// their keys keep the order they were written in.
func TestDecodeMapFiles(t *testing.T) {
	read := func(name string, typ *pb.TypeProto) tensor.Value {
		t.Helper()
		b, err := os.ReadFile("testdata/maps/" + name)
		if err != nil {
			t.Fatal(err)
		}
		v, _, err := DecodeValue(b, typ)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return v
	}
	m := read("string_float.pb", mapTypeOf(tensor.String, tensor.Float)).(*tensor.Map)
	if got := m.StringKeys(); strings.Join(got, ",") != "dog,cat" {
		t.Errorf("keys %v, want [dog cat]", got)
	}
	if got, _ := tensor.ToSlice[float32](m.Values); len(got) != 2 || got[0] != 0.75 || got[1] != 0.25 {
		t.Errorf("values %v, want [0.75 0.25]", got)
	}
	mi := read("int64_int64.pb", mapTypeOf(tensor.Int64, tensor.Int64)).(*tensor.Map)
	if got := mi.Int64Keys(); len(got) != 2 || got[0] != 3 || got[1] != -1 {
		t.Errorf("keys %v, want [3 -1]", got)
	}
	if got, _ := tensor.ToSlice[int64](mi.Values); len(got) != 2 || got[0] != 7 || got[1] != -2 {
		t.Errorf("values %v, want [7 -2]", got)
	}
	s := read("seq_string_float.pb", seqType(mapTypeOf(tensor.String, tensor.Float))).(*tensor.MapSequence)
	if len(s.Items) != 2 || s.KeyType != tensor.String || s.ValueType != tensor.Float || s.Items[1].Len() != 2 {
		t.Errorf("got %s, want 2 maps of string to float", s.Describe())
	}
}

func TestMapRoundTrip(t *testing.T) {
	sm, _ := tensor.MapOf([]string{"b", "a", ""}, []float64{1, -2.5, 3})
	im, _ := tensor.MapOf([]int64{-9, 1 << 40}, []int32{4, 5})
	empty, _ := tensor.MapOf([]int64{}, []float32{})
	one, _ := tensor.MapOf([]string{"x"}, []string{"y"})
	values := []struct {
		v   tensor.Value
		typ *pb.TypeProto
	}{
		{sm, mapTypeOf(tensor.String, tensor.Double)},
		{im, mapTypeOf(tensor.Int64, tensor.Int32)},
		{empty, mapTypeOf(tensor.Int64, tensor.Float)},
		{one, mapTypeOf(tensor.String, tensor.String)},
		{&tensor.MapSequence{KeyType: tensor.String, ValueType: tensor.Double, Items: []*tensor.Map{sm, sm}}, seqType(mapTypeOf(tensor.String, tensor.Double))},
		{&tensor.MapSequence{KeyType: tensor.Int64, ValueType: tensor.Float}, seqType(mapTypeOf(tensor.Int64, tensor.Float))},
	}
	for _, tc := range values {
		b, err := EncodeValue(tc.v, "out")
		if err != nil {
			t.Fatalf("%s: %v", tc.v.Describe(), err)
		}
		got, name, err := DecodeValue(b, tc.typ)
		if err != nil {
			t.Fatalf("%s: %v", tc.v.Describe(), err)
		}
		if name != "out" || got.Describe() != tc.v.Describe() {
			t.Errorf("%s came back as %q %s", tc.v.Describe(), name, got.Describe())
		}
		var want, have []*tensor.Map
		switch v := tc.v.(type) {
		case *tensor.Map:
			want, have = []*tensor.Map{v}, []*tensor.Map{got.(*tensor.Map)}
		case *tensor.MapSequence:
			want, have = v.Items, got.(*tensor.MapSequence).Items
		}
		for i := range want {
			if !want[i].Keys.Equal(have[i].Keys) || !want[i].Values.Equal(have[i].Values) {
				t.Errorf("%s item %d: keys %v values %v, want %v %v", tc.v.Describe(), i, have[i].Keys, have[i].Values, want[i].Keys, want[i].Values)
			}
		}
	}
}

func TestMapProtoRefused(t *testing.T) {
	scalar := func(v float32) *pb.TensorProto {
		tp, _ := TensorToProto(tensor.Scalar(v), "")
		return tp
	}
	pair, _ := TensorToProto(tensor.MustFromSlice([]float32{1, 2}), "")
	i32, _ := TensorToProto(tensor.Scalar(int32(1)), "")
	vals := func(tps ...*pb.TensorProto) *pb.SequenceProto {
		return &pb.SequenceProto{ElemType: ptr(int32(pb.SequenceProto_TENSOR)), TensorValues: tps}
	}
	str := ptr(int32(tensor.String))
	i64 := ptr(int32(tensor.Int64))
	cases := []struct {
		mp       *pb.MapProto
		value    tensor.DataType
		want     string
		sentinel error
	}{
		{nil, tensor.Float, "nil MapProto", nil},
		{&pb.MapProto{KeyType: ptr(int32(tensor.Int32)), Keys: []int64{1}, Values: vals(scalar(1))}, tensor.Float, "maps with int32 keys", ErrUnsupported},
		{&pb.MapProto{KeyType: ptr(int32(77))}, tensor.Float, "unknown key_type 77", tensor.ErrType},
		{&pb.MapProto{KeyType: i64, StringKeys: [][]byte{[]byte("a")}}, tensor.Float, "string_keys are set", tensor.ErrType},
		{&pb.MapProto{KeyType: str, Keys: []int64{1}}, tensor.Float, "int64 keys are set", tensor.ErrType},
		{&pb.MapProto{KeyType: i64, Keys: []int64{1, 2}, Values: vals(scalar(1))}, tensor.Float, "2 keys but 1 values", tensor.ErrShape},
		{&pb.MapProto{KeyType: i64, Keys: []int64{1}, Values: vals(pair)}, tensor.Float, "value 0 has shape [2]", ErrUnsupported},
		{&pb.MapProto{KeyType: i64, Keys: []int64{1}, Values: vals(i32)}, tensor.Float, "value 0 is int32, the map's values are float", tensor.ErrType},
		{&pb.MapProto{KeyType: i64, Keys: []int64{1, 1}, Values: vals(scalar(1), scalar(2))}, tensor.Float, "map keys 0 and 1 are both 1", tensor.ErrType},
		{&pb.MapProto{KeyType: i64, Keys: []int64{1}, Values: &pb.SequenceProto{SequenceValues: []*pb.SequenceProto{{}}}}, tensor.Float, "map values other than tensors", ErrUnsupported},
		{&pb.MapProto{KeyType: i64}, tensor.Undefined, "an empty map whose value type is not known", tensor.ErrType},
	}
	for _, tc := range cases {
		_, err := MapFromProto(tc.mp, tc.value)
		if err == nil || !strings.Contains(err.Error(), tc.want) || (tc.sentinel != nil && !errors.Is(err, tc.sentinel)) {
			t.Errorf("MapFromProto: error %v, want one saying %q (%v)", err, tc.want, tc.sentinel)
		}
	}
	// A map whose keys are not those the value's type names.
	sm, _ := tensor.MapOf([]string{"a"}, []float32{1})
	b, _ := EncodeValue(sm, "m")
	if _, _, err := DecodeValue(b, mapTypeOf(tensor.Int64, tensor.Float)); !errors.Is(err, tensor.ErrType) || !strings.Contains(err.Error(), "its keys are string") {
		t.Errorf("string keys read as int64 keys: %v", err)
	}
	if _, _, err := DecodeValue(b, mapTypeOf(tensor.String, tensor.Double)); !errors.Is(err, tensor.ErrType) {
		t.Errorf("float values read as double values: %v", err)
	}
	// A sequence of maps holding a tensor, or maps of two value types.
	ftp := scalar(1)
	if _, err := MapSequenceFromProto(&pb.SequenceProto{TensorValues: []*pb.TensorProto{ftp}}, tensor.Undefined, tensor.Undefined); err == nil || !strings.Contains(err.Error(), "holds other values") {
		t.Errorf("a tensor in a sequence of maps: %v", err)
	}
	m1 := &pb.MapProto{KeyType: i64, Keys: []int64{1}, Values: vals(scalar(1))}
	m2 := &pb.MapProto{KeyType: str, StringKeys: [][]byte{[]byte("a")}, Values: vals(scalar(1))}
	if _, err := MapSequenceFromProto(&pb.SequenceProto{MapValues: []*pb.MapProto{m1, m2}}, tensor.Undefined, tensor.Undefined); !errors.Is(err, tensor.ErrType) {
		t.Errorf("maps of two key types in one sequence: %v", err)
	}
	if _, err := EncodeValue(&tensor.Map{}, "m"); err == nil {
		t.Error("a map without keys: no error")
	}
}

// A huge map value in a small file: the values' declared storage is checked
// before any is built.
func TestMapProtoWithinLimits(t *testing.T) {
	big := &pb.TensorProto{DataType: ptr(int32(tensor.Float)), Dims: []int64{1 << 28}} // 1 GiB, a valid shape where int has 32 bits too
	mp := &pb.MapProto{KeyType: ptr(int32(tensor.Int64)), Keys: []int64{1}, Values: &pb.SequenceProto{TensorValues: []*pb.TensorProto{big}}}
	b, err := marshal(mp)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = DecodeValueWith(b, mapTypeOf(tensor.Int64, tensor.Float), &Limits{MaxTensorBytes: 1 << 20})
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("a map value of 2^28 floats: %v, want ErrTooLarge", err)
	}
}
