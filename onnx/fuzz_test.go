package onnx

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// Seed corpora: testdata/fuzz/<Target>/ holds a few small files of the
// ONNX node tests; the seeds below add the storage forms they lack.

// maxExpansion bounds the storage a decoded tensor may take per byte of
// input: an int64 in int64_data takes 8 bytes of storage for 1 of varint.
const maxExpansion = 8

func FuzzTensorFromProto(f *testing.F) {
	for _, tp := range seedTensorProtos() {
		b, err := proto.Marshal(tp)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	// A model folder with one small data file, for fuzzed external_data
	// entries to aim at (or to try to escape from).
	dir := f.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "w.bin"), []byte("0123456789abcdef0123456789abcdef"), 0o644); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		tp := &pb.TensorProto{}
		if proto.Unmarshal(b, tp) != nil {
			return
		}
		if x, err := TensorFromProto(tp, dir); err == nil && x.ByteLen() > 32+maxExpansion*len(b) {
			t.Fatalf("%d bytes of input and a 32-byte file decoded to %d bytes of storage", len(b), x.ByteLen())
		}
		x, err := TensorFromProto(tp, "")
		if err != nil {
			return
		}
		if x.ByteLen() > maxExpansion*len(b) {
			t.Fatalf("%d bytes of input decoded to %d bytes of storage", len(b), x.ByteLen())
		}
		// What was read must survive a round trip.
		back, err := TensorToProto(x, tp.GetName())
		if err != nil {
			t.Fatalf("TensorToProto of a decoded tensor: %v", err)
		}
		y, err := TensorFromProto(back, "")
		if err != nil || !x.Equal(y) {
			t.Fatalf("round trip: got %v (%v), want %v", y, err, x)
		}
	})
}

func FuzzDecodeModel(f *testing.F) {
	m := &pb.ModelProto{Graph: &pb.GraphProto{
		Node:        []*pb.NodeProto{{OpType: ptr("Identity"), Input: []string{"x"}, Output: []string{"y"}}},
		Initializer: seedTensorProtos(),
		Input:       []*pb.ValueInfoProto{{Name: ptr("x"), Type: tensorType(tensor.Float, "N", 2)}},
	}}
	b, err := EncodeModel(m)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	md := (&pb.ModelProto{}).ProtoReflect().Descriptor()
	f.Fuzz(func(t *testing.T, b []byte) {
		// The pre-scan refuses only what protobuf refuses, or what is
		// above the cap.
		if _, err := decodedSize(b, md, math.MaxInt64, 0); err != nil && proto.Unmarshal(b, &pb.ModelProto{}) == nil {
			t.Fatalf("the pre-scan refuses a message protobuf decodes: %v", err)
		}
		m, err := DecodeModel(b)
		if err != nil {
			return
		}
		if _, err := EncodeModel(m); err != nil {
			t.Fatalf("EncodeModel of a decoded model: %v", err)
		}
		// What a loader does next must not panic either.
		for _, init := range m.Graph.GetInitializer() {
			if x, err := TensorFromProto(init, ""); err == nil && x.ByteLen() > maxExpansion*len(b) {
				t.Fatalf("%d bytes of model decoded to a tensor of %d bytes", len(b), x.ByteLen())
			}
		}
		for _, vi := range append(m.Graph.GetInput(), m.Graph.GetOutput()...) {
			_ = DescribeType(vi.GetType())
			_ = ValueMatchesType(tensor.MustNew(tensor.Float, 2), vi.GetType())
		}
	})
}

// FuzzDecodeValue decodes bytes as a tensor ('t'), sequence ('s'),
// optional ('o', 'p'), map ('m', 'n') or sequence of maps ('z') file.
func FuzzDecodeValue(f *testing.F) {
	f.Add(byte('t'), []byte{})
	for _, seed := range []struct {
		kind byte
		file string
	}{{'m', "string_float.pb"}, {'n', "int64_int64.pb"}, {'z', "seq_string_float.pb"}} {
		if b, err := os.ReadFile(filepath.Join("testdata", "maps", seed.file)); err == nil {
			f.Add(seed.kind, b)
		}
	}
	f.Fuzz(func(t *testing.T, kind byte, b []byte) {
		typ := map[byte]*pb.TypeProto{
			's': seqType(tensorType(tensor.Float)),
			'o': optType(seqType(tensorType(tensor.Int64))),
			'p': optType(tensorType(tensor.Undefined)),
			'm': mapTypeOf(tensor.String, tensor.Float),
			'n': mapTypeOf(tensor.Int64, tensor.Undefined),
			'z': seqType(mapTypeOf(tensor.String, tensor.Float)),
		}[kind]
		v, name, err := DecodeValue(b, typ)
		if err != nil {
			return
		}
		enc, err := EncodeValue(v, name)
		if err != nil {
			t.Fatalf("EncodeValue of a decoded %s: %v", v.Describe(), err)
		}
		w, _, err := DecodeValue(enc, typ)
		if err != nil || !sameValue(v, w) {
			t.Fatalf("round trip of %s: got %v (%v)", v.Describe(), w, err)
		}
	})
}

// seedTensorProtos is one TensorProto for each storage form.
func seedTensorProtos() []*pb.TensorProto {
	dt := func(t tensor.DataType) *int32 { return ptr(int32(t)) }
	return []*pb.TensorProto{
		{DataType: dt(tensor.Float), Dims: []int64{2}, FloatData: []float32{1, 2}, Name: ptr("f")},
		{DataType: dt(tensor.Complex64), Dims: []int64{1}, FloatData: []float32{1, 2}},
		{DataType: dt(tensor.Double), Dims: []int64{1, 1}, DoubleData: []float64{3}},
		{DataType: dt(tensor.Int64), Dims: []int64{}, Int64Data: []int64{-5}},
		{DataType: dt(tensor.Uint32), Dims: []int64{2}, Uint64Data: []uint64{1, 1 << 31}},
		{DataType: dt(tensor.Int8), Dims: []int64{3}, Int32Data: []int32{-1, 0, 1}},
		{DataType: dt(tensor.Float16), Dims: []int64{1}, Int32Data: []int32{0x3C00}},
		{DataType: dt(tensor.Bool), Dims: []int64{2}, RawData: []byte{0, 1}},
		{DataType: dt(tensor.Int4), Dims: []int64{3}, Int32Data: []int32{0x8F, 0x07}},
		{DataType: dt(tensor.Uint2), Dims: []int64{5}, RawData: []byte{0xE4, 0x03}},
		{DataType: dt(tensor.String), Dims: []int64{2}, StringData: [][]byte{[]byte("a"), []byte("bc")}},
		{DataType: dt(tensor.Float), Dims: []int64{1}, DataLocation: pb.TensorProto_EXTERNAL.Enum(),
			ExternalData: []*pb.StringStringEntryProto{{Key: ptr("location"), Value: ptr("w.bin")}, {Key: ptr("offset"), Value: ptr("28")}}},
		{DataType: dt(tensor.Float), Dims: []int64{1 << 40, 0}},
	}
}
