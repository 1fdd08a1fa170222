package onnx

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// Type builders for the tests.
func tensorType(dt tensor.DataType, dims ...any) *pb.TypeProto {
	tt := &pb.TypeProto_Tensor{ElemType: ptr(int32(dt))}
	if dims != nil {
		tt.Shape = &pb.TensorShapeProto{}
		for _, d := range dims {
			dim := &pb.TensorShapeProto_Dimension{}
			switch d := d.(type) {
			case int:
				dim.Value = &pb.TensorShapeProto_Dimension_DimValue{DimValue: int64(d)}
			case string:
				dim.Value = &pb.TensorShapeProto_Dimension_DimParam{DimParam: d}
			}
			tt.Shape.Dim = append(tt.Shape.Dim, dim)
		}
	}
	return &pb.TypeProto{Value: &pb.TypeProto_TensorType{TensorType: tt}}
}

func seqType(elem *pb.TypeProto) *pb.TypeProto {
	return &pb.TypeProto{Value: &pb.TypeProto_SequenceType{SequenceType: &pb.TypeProto_Sequence{ElemType: elem}}}
}

func optType(elem *pb.TypeProto) *pb.TypeProto {
	return &pb.TypeProto{Value: &pb.TypeProto_OptionalType{OptionalType: &pb.TypeProto_Optional{ElemType: elem}}}
}

func TestDescribeType(t *testing.T) {
	scalarShape := tensorType(tensor.Float)
	scalarShape.GetTensorType().Shape = &pb.TensorShapeProto{}
	tests := []struct {
		typ  *pb.TypeProto
		want string
	}{
		{tensorType(tensor.Float, 2, 3), "tensor(float)[2,3]"},
		{tensorType(tensor.Float, "N", 3), "tensor(float)[N,3]"},
		{tensorType(tensor.Int4, nil), "tensor(int4)[?]"},
		{tensorType(tensor.Float), "tensor(float)"},
		{scalarShape, "tensor(float)[]"},
		{seqType(tensorType(tensor.Int64)), "seq(tensor(int64))"},
		{optType(seqType(tensorType(tensor.Float))), "optional(seq(tensor(float)))"},
		{optType(tensorType(tensor.Bool, 1)), "optional(tensor(bool)[1])"},
		{&pb.TypeProto{Value: &pb.TypeProto_MapType{MapType: &pb.TypeProto_Map{KeyType: ptr(int32(tensor.String)), ValueType: tensorType(tensor.Float)}}}, "map(string,tensor(float))"},
		{tensorType(tensor.DataType(99)), "tensor(DataType(99))"},
		{nil, "?"},
		{&pb.TypeProto{}, "?"},
		{seqType(nil), "seq(?)"},
	}
	for _, tc := range tests {
		if got := DescribeType(tc.typ); got != tc.want {
			t.Errorf("DescribeType = %q, want %q", got, tc.want)
		}
	}
}

func TestValueMatchesType(t *testing.T) {
	f23 := tensor.MustNew(tensor.Float, 2, 3)
	i64 := tensor.MustFromSlice([]int64{1, 2})
	seq := &tensor.Sequence{ElemType: tensor.Int64, Items: []*tensor.Tensor{i64, tensor.MustFromSlice([]int64{3})}}
	m, _ := tensor.MapOf([]int64{4, 2}, []float32{0.5, 0.5})
	ms := &tensor.MapSequence{KeyType: tensor.Int64, ValueType: tensor.Float, Items: []*tensor.Map{m, m}}
	mapType := func(key tensor.DataType, value *pb.TypeProto) *pb.TypeProto {
		return &pb.TypeProto{Value: &pb.TypeProto_MapType{MapType: &pb.TypeProto_Map{KeyType: ptr(int32(key)), ValueType: value}}}
	}
	tests := []struct {
		v    tensor.Value
		typ  *pb.TypeProto
		want string // "" if it fits
	}{
		{f23, tensorType(tensor.Float, 2, 3), ""},
		{f23, tensorType(tensor.Float, "N", 3), ""},
		{f23, tensorType(tensor.Float), ""},
		{f23, tensorType(tensor.Undefined, 2, 3), ""},
		{f23, nil, ""},
		{f23, tensorType(tensor.Double, 2, 3), "element type is float, not double"},
		{f23, tensorType(tensor.Float, 2), "has rank 2, not 1"},
		{f23, tensorType(tensor.Float, 2, 4), "dimension 1 = 3, not 4"},
		{f23, seqType(tensorType(tensor.Float)), "not a sequence"},
		{f23, optType(tensorType(tensor.Float)), "not an optional"},
		{seq, seqType(tensorType(tensor.Int64)), ""},
		{seq, seqType(tensorType(tensor.Int64, "N")), ""},
		{seq, seqType(tensorType(tensor.Int64, 2)), "item 1: "},
		{seq, seqType(tensorType(tensor.Int32)), "sequence of int64, not of int32"},
		{seq, seqType(seqType(tensorType(tensor.Int64))), "not of seq(tensor(int64))"},
		{seq, tensorType(tensor.Int64), "not a tensor"},
		{&tensor.Sequence{}, seqType(tensorType(tensor.Float)), ""},
		{&tensor.Optional{}, optType(tensorType(tensor.Float)), ""},
		{&tensor.Optional{Value: f23}, optType(tensorType(tensor.Float, 2, 3)), ""},
		{&tensor.Optional{Value: f23}, optType(tensorType(tensor.Int8)), "element type is float, not int8"},
		{&tensor.Optional{Value: seq}, optType(seqType(tensorType(tensor.Int64))), ""},
		{&tensor.Optional{Value: seq}, optType(tensorType(tensor.Int64)), "not a tensor"},
		{nil, tensorType(tensor.Float), "no value"},
		{(*tensor.Tensor)(nil), tensorType(tensor.Float), "a nil tensor"},
		{f23, &pb.TypeProto{Value: &pb.TypeProto_MapType{MapType: &pb.TypeProto_Map{}}}, "not a map"},
		{m, mapType(tensor.Int64, tensorType(tensor.Float)), ""},
		{m, mapType(tensor.String, tensorType(tensor.Float)), "map keys are int64, not string"},
		{m, mapType(tensor.Int64, tensorType(tensor.Double)), "map values are float, not double"},
		{m, mapType(tensor.Int64, tensorType(tensor.Float, 2)), "unsupported"},
		{m, mapType(tensor.Int64, seqType(tensorType(tensor.Float))), "unsupported"},
		{m, seqType(mapType(tensor.Int64, tensorType(tensor.Float))), "not a sequence"},
		{ms, seqType(mapType(tensor.Int64, tensorType(tensor.Float))), ""},
		{ms, seqType(&pb.TypeProto{}), ""},
		{ms, seqType(mapType(tensor.String, tensorType(tensor.Float))), "map keys are int64, not string"},
		{ms, seqType(tensorType(tensor.Float)), "a sequence of maps, not of tensor(float)"},
		{seq, seqType(mapType(tensor.Int64, tensorType(tensor.Float))), "a sequence of tensors, not of map"},
		{(*tensor.Map)(nil), mapType(tensor.Int64, tensorType(tensor.Float)), "a nil map"},
	}
	for _, tc := range tests {
		err := ValueMatchesType(tc.v, tc.typ)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%v as %s: %v", tc.v, DescribeType(tc.typ), err)
		case tc.want != "" && err == nil:
			t.Errorf("%v as %s: fits, want an error saying %q", tc.v, DescribeType(tc.typ), tc.want)
		case tc.want != "" && !strings.Contains(err.Error(), tc.want):
			t.Errorf("%v as %s: error %q does not say %q", tc.v, DescribeType(tc.typ), err, tc.want)
		}
	}
}

func TestSequenceAndOptionalRoundTrip(t *testing.T) {
	a := tensor.MustFromSlice([]float32{1, 2, 3})
	b := tensor.MustFromSlice([]float32{4}, 1, 1)
	s := tensor.MustFromSlice([]string{"x", "yz"})
	values := []struct {
		v   tensor.Value
		typ *pb.TypeProto
	}{
		{&tensor.Sequence{ElemType: tensor.Float, Items: []*tensor.Tensor{a, b}}, seqType(tensorType(tensor.Float))},
		{&tensor.Sequence{ElemType: tensor.String, Items: []*tensor.Tensor{s}}, seqType(tensorType(tensor.String))},
		{&tensor.Sequence{ElemType: tensor.Int64}, seqType(tensorType(tensor.Int64))},
		{&tensor.Optional{Value: a}, optType(tensorType(tensor.Float))},
		{&tensor.Optional{Value: &tensor.Sequence{ElemType: tensor.Float, Items: []*tensor.Tensor{b}}}, optType(seqType(tensorType(tensor.Float)))},
		{&tensor.Optional{Value: &tensor.Sequence{ElemType: tensor.Uint8}}, optType(seqType(tensorType(tensor.Uint8)))},
		{&tensor.Optional{ElemType: "tensor(float)"}, optType(tensorType(tensor.Float))},
		{&tensor.Optional{ElemType: "seq(tensor(float))"}, optType(seqType(tensorType(tensor.Float)))},
	}
	for _, tc := range values {
		enc, err := EncodeValue(tc.v, "v")
		if err != nil {
			t.Fatalf("%v: %v", tc.v.Describe(), err)
		}
		got, name, err := DecodeValue(enc, tc.typ)
		if err != nil {
			t.Errorf("%v: %v", tc.v.Describe(), err)
			continue
		}
		if name != "v" || !sameValue(got, tc.v) {
			t.Errorf("round trip of %v gave %v %q", tc.v.Describe(), got.Describe(), name)
		}
		if err := ValueMatchesType(got, tc.typ); err != nil {
			t.Errorf("%v: %v", tc.v.Describe(), err)
		}
	}
}

// TestDecodeValueFillsTypes checks that what a SequenceProto or an empty
// OptionalProto does not record is taken from the graph's type.
func TestDecodeValueFillsTypes(t *testing.T) {
	b, _ := proto.Marshal(&pb.SequenceProto{ElemType: ptr(int32(pb.SequenceProto_TENSOR))})
	v, _, err := DecodeValue(b, seqType(tensorType(tensor.Int32)))
	if err != nil || v.(*tensor.Sequence).ElemType != tensor.Int32 {
		t.Errorf("empty sequence: %v (%v), want element type int32", v, err)
	}
	b, _ = proto.Marshal(&pb.OptionalProto{ElemType: ptr(int32(pb.OptionalProto_TENSOR))})
	v, _, err = DecodeValue(b, optType(tensorType(tensor.Float, "N")))
	if o, ok := v.(*tensor.Optional); err != nil || !ok || o.Value != nil || o.ElemType != "tensor(float)[N]" {
		t.Errorf("empty optional: %#v (%v), want empty with ElemType tensor(float)[N]", v, err)
	}
}

func TestSequenceOptionalErrors(t *testing.T) {
	f := tensor.MustFromSlice([]float32{1})
	ftp, _ := TensorToProto(f, "")
	itp, _ := TensorToProto(tensor.MustFromSlice([]int8{1}), "")
	badtp := &pb.TensorProto{DataType: ptr(int32(99))}
	seqs := []struct {
		sp   *pb.SequenceProto
		want string
	}{
		{nil, "nil SequenceProto"},
		{&pb.SequenceProto{TensorValues: []*pb.TensorProto{ftp, itp}}, "item 1 is int8, item 0 is float"},
		{&pb.SequenceProto{TensorValues: []*pb.TensorProto{ftp, badtp}}, "item 1: onnx: tensor \"\": type mismatch: unknown data_type 99"},
		{&pb.SequenceProto{ElemType: ptr(int32(pb.SequenceProto_SEQUENCE))}, "sequence of sequences"},
		{&pb.SequenceProto{SequenceValues: []*pb.SequenceProto{{}}}, "sequence of sequences"},
		{&pb.SequenceProto{ElemType: ptr(int32(pb.SequenceProto_MAP))}, "sequence of maps"},
		{&pb.SequenceProto{ElemType: ptr(int32(pb.SequenceProto_SPARSE_TENSOR))}, "sequence of sparse tensors"},
		{&pb.SequenceProto{OptionalValues: []*pb.OptionalProto{{}}}, "sequence of optionals"},
		{&pb.SequenceProto{ElemType: ptr(int32(42))}, "unknown elem_type 42"},
	}
	for _, tc := range seqs {
		_, err := SequenceFromProto(tc.sp, "")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("SequenceFromProto: error %v, want one saying %q", err, tc.want)
		}
	}
	opts := []struct {
		op   *pb.OptionalProto
		want string
	}{
		{nil, "nil OptionalProto"},
		{&pb.OptionalProto{TensorValue: ftp, SequenceValue: &pb.SequenceProto{}}, "both tensor_value and sequence_value"},
		{&pb.OptionalProto{ElemType: ptr(int32(pb.OptionalProto_SEQUENCE)), TensorValue: ftp}, "elem_type is SEQUENCE but the value is not"},
		{&pb.OptionalProto{ElemType: ptr(int32(pb.OptionalProto_OPTIONAL))}, "optional of an optional"},
		{&pb.OptionalProto{MapValue: &pb.MapProto{}}, "optional map"},
		{&pb.OptionalProto{SparseTensorValue: &pb.SparseTensorProto{}}, "optional sparse tensor"},
		{&pb.OptionalProto{ElemType: ptr(int32(-3))}, "unknown elem_type -3"},
		{&pb.OptionalProto{TensorValue: badtp}, "unknown data_type 99"},
	}
	for _, tc := range opts {
		_, err := OptionalFromProto(tc.op, "")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("OptionalFromProto: error %v, want one saying %q", err, tc.want)
		}
	}
	if _, err := EncodeValue(&tensor.Optional{Value: &tensor.Optional{}}, ""); !errors.Is(err, ErrUnsupported) {
		t.Errorf("optional of optional: %v, want ErrUnsupported", err)
	}
	if _, err := EncodeValue(nil, ""); !errors.Is(err, ErrUnsupported) {
		t.Errorf("nil value: %v, want ErrUnsupported", err)
	}
	if _, err := EncodeValue(&tensor.Sequence{Items: []*tensor.Tensor{nil}}, ""); err == nil {
		t.Error("sequence with a nil item: no error")
	}
	mapType := &pb.TypeProto{Value: &pb.TypeProto_MapType{MapType: &pb.TypeProto_Map{}}}
	if _, _, err := DecodeValue(nil, mapType); !errors.Is(err, tensor.ErrType) || !strings.Contains(err.Error(), "unknown key_type 0") {
		t.Errorf("an empty MapProto: %v, want an unknown key_type", err)
	}
	for _, typ := range []*pb.TypeProto{nil, seqType(tensorType(tensor.Float)), optType(tensorType(tensor.Float))} {
		if _, _, err := DecodeValue([]byte{0xFF, 0xFF}, typ); err == nil {
			t.Errorf("garbage as %s: no error", DescribeType(typ))
		}
	}
}

func TestModelDecodeEncode(t *testing.T) {
	m := &pb.ModelProto{
		IrVersion:   ptr(int64(10)),
		OpsetImport: []*pb.OperatorSetIdProto{{Version: ptr(int64(21))}},
		Graph: &pb.GraphProto{
			Name:  ptr("g"),
			Node:  []*pb.NodeProto{{OpType: ptr("Identity"), Input: []string{"x"}, Output: []string{"y"}}},
			Input: []*pb.ValueInfoProto{{Name: ptr("x"), Type: tensorType(tensor.Float, 2)}},
		},
	}
	b1, err := EncodeModel(m)
	if err != nil {
		t.Fatal(err)
	}
	b2, _ := EncodeModel(m)
	if string(b1) != string(b2) {
		t.Error("EncodeModel is not deterministic")
	}
	got, err := DecodeModel(b1)
	if err != nil || !proto.Equal(got, m) {
		t.Errorf("DecodeModel(EncodeModel(m)) = %v (%v)", got, err)
	}
	path := filepath.Join(t.TempDir(), "m.onnx")
	if err := os.WriteFile(path, b1, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadModel(path); err != nil || !proto.Equal(got, m) {
		t.Errorf("ReadModel = %v (%v)", got, err)
	}
	for name, b := range map[string][]byte{
		"empty":     {},
		"truncated": b1[:len(b1)-3],
		"garbage":   []byte("this is not a model"),
		"no graph":  {0x08, 0x0A}, // ir_version 10 only
	} {
		if _, err := DecodeModel(b); err == nil {
			t.Errorf("%s: no error", name)
		} else if !strings.Contains(err.Error(), "not a valid model") {
			t.Errorf("%s: error %q does not say it is not a valid model", name, err)
		}
	}
	if _, err := ReadModel(filepath.Join(t.TempDir(), "missing.onnx")); err == nil {
		t.Error("ReadModel of a missing file: no error")
	}
}
