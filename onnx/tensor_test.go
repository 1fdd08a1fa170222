package onnx

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/x448/float16"

	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// sampleBytes returns n elements' worth of storage for dt whose every
// element is legal and whose bytes vary, so that a lost or misplaced byte
// shows.
func sampleBytes(dt tensor.DataType, n int) []byte {
	b := make([]byte, n*dt.Size())
	for i := range b {
		v := byte(i*37 + 11)
		switch dt {
		case tensor.Bool:
			v &= 1
		case tensor.Uint4, tensor.Float4E2M1:
			v &= 0x0F
		case tensor.Int4:
			v = byte(int8(v&0x0F) - 8) // -8..7
		case tensor.Uint2:
			v &= 3
		case tensor.Int2:
			v = byte(int8(v&3) - 2) // -2..1
		}
		b[i] = v
	}
	return b
}

func sampleTensor(t *testing.T, dt tensor.DataType, shape []int) *tensor.Tensor {
	t.Helper()
	n, err := tensor.NumElements(shape)
	if err != nil {
		t.Fatal(err)
	}
	if dt == tensor.String {
		s := make([]string, n)
		for i := range s {
			s[i] = strings.Repeat("é", i%3) + string(rune('a'+i%26))
		}
		x, err := tensor.FromSlice(s, shape...)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	x, err := tensor.FromBytes(dt, sampleBytes(dt, n), shape...)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func TestTensorRoundTripEveryType(t *testing.T) {
	shapes := [][]int{{}, {0}, {3, 0, 2}, {1}, {5}, {3, 3}, {2, 3, 7}, {4, 2}}
	for _, dt := range tensor.AllTypes() {
		for _, shape := range shapes {
			x := sampleTensor(t, dt, shape)
			tp, err := TensorToProto(x, "x")
			if err != nil {
				t.Fatalf("%v%v: TensorToProto: %v", dt, shape, err)
			}
			if tp.GetName() != "x" || tensor.DataType(tp.GetDataType()) != dt || len(tp.Dims) != len(shape) {
				t.Errorf("%v%v: proto header is name %q type %d dims %v", dt, shape, tp.GetName(), tp.GetDataType(), tp.Dims)
			}
			if dt != tensor.String {
				if want := rawLen(dt, x.Len()); len(tp.RawData) != want {
					t.Errorf("%v%v: raw_data has %d bytes, want %d", dt, shape, len(tp.RawData), want)
				}
			}
			// Through the wire too, as a file would carry it.
			b, err := EncodeValue(x, "x")
			if err != nil {
				t.Fatal(err)
			}
			v, name, err := DecodeValue(b, nil)
			if err != nil {
				t.Fatalf("%v%v: DecodeValue: %v", dt, shape, err)
			}
			y := v.(*tensor.Tensor)
			if name != "x" || !x.Equal(y) {
				t.Errorf("%v%v: round trip gave %v %q, want %v", dt, shape, y, name, x)
			}
		}
	}
}

// TestPackedLayout pins the bit order of the packed types: first element in
// the low bits, padding zero.
func TestPackedLayout(t *testing.T) {
	tests := []struct {
		x   *tensor.Tensor
		raw []byte
	}{
		{tensor.MustFromSlice([]tensor.I4{1, -1, -8}), []byte{0xF1, 0x08}},
		{tensor.MustFromSlice([]tensor.U4{0xA, 0x5, 0xF, 0x0}), []byte{0x5A, 0x0F}},
		{tensor.MustFromSlice([]tensor.F4E2M1{0x9}), []byte{0x09}},
		{tensor.MustFromSlice([]tensor.I2{1, -1, -2, 0, 1}), []byte{0b00_10_11_01, 0b01}},
		{tensor.MustFromSlice([]tensor.U2{3, 0, 1, 2}), []byte{0b10_01_00_11}},
	}
	for _, tc := range tests {
		tp, err := TensorToProto(tc.x, "")
		if err != nil {
			t.Fatal(err)
		}
		if string(tp.RawData) != string(tc.raw) {
			t.Errorf("%v: raw_data %x, want %x", tc.x, tp.RawData, tc.raw)
		}
		y, err := TensorFromProto(&pb.TensorProto{DataType: ptr(int32(tc.x.DataType())), Dims: []int64{int64(tc.x.Len())}, RawData: tc.raw}, "")
		if err != nil || !y.Equal(tc.x) {
			t.Errorf("%x: got %v (%v), want %v", tc.raw, y, err, tc.x)
		}
	}
}

func TestRawLittleEndian(t *testing.T) {
	tests := []struct {
		dt   tensor.DataType
		raw  []byte
		want *tensor.Tensor
	}{
		{tensor.Float, []byte{0, 0, 0x80, 0x3F, 0, 0, 0, 0xC0}, tensor.MustFromSlice([]float32{1, -2})},
		{tensor.Int16, []byte{0x34, 0x12, 0xFF, 0xFF}, tensor.MustFromSlice([]int16{0x1234, -1})},
		{tensor.Int64, []byte{1, 0, 0, 0, 0, 0, 0, 0x80, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F},
			tensor.MustFromSlice([]int64{math.MinInt64 + 1, math.MaxInt64})},
		{tensor.Complex64, []byte{0, 0, 0x80, 0x3F, 0, 0, 0, 0x40}, tensor.MustFromSlice([]complex64{complex(1, 2)})},
		{tensor.Bool, []byte{1, 0, 1}, tensor.MustFromSlice([]bool{true, false, true})},
	}
	for _, tc := range tests {
		got, err := TensorFromProto(&pb.TensorProto{DataType: ptr(int32(tc.dt)), Dims: []int64{int64(tc.want.Len())}, RawData: tc.raw}, "")
		if err != nil || !got.Equal(tc.want) {
			t.Errorf("%v %x: got %v (%v), want %v", tc.dt, tc.raw, got, err, tc.want)
		}
	}
}

// TestTypedFields decodes each typed storage form ONNX defines, from
// hand-built protos, to exact values.
func TestTypedFields(t *testing.T) {
	dims := func(d ...int64) []int64 { return d }
	tests := []struct {
		name string
		tp   *pb.TensorProto
		want *tensor.Tensor
	}{
		{"float_data", &pb.TensorProto{DataType: ptr(int32(tensor.Float)), Dims: dims(3), FloatData: []float32{1.5, -0, float32(math.Inf(1))}},
			tensor.MustFromSlice([]float32{1.5, -0, float32(math.Inf(1))})},
		{"float_data complex64", &pb.TensorProto{DataType: ptr(int32(tensor.Complex64)), Dims: dims(2), FloatData: []float32{1, 2, 3, 4}},
			tensor.MustFromSlice([]complex64{1 + 2i, 3 + 4i})},
		{"double_data", &pb.TensorProto{DataType: ptr(int32(tensor.Double)), Dims: dims(2, 1), DoubleData: []float64{0.1, -1e300}},
			tensor.MustFromSlice([]float64{0.1, -1e300}, 2, 1)},
		{"double_data complex128", &pb.TensorProto{DataType: ptr(int32(tensor.Complex128)), Dims: dims(1), DoubleData: []float64{-1, 0.5}},
			tensor.MustFromSlice([]complex128{-1 + 0.5i})},
		{"int64_data", &pb.TensorProto{DataType: ptr(int32(tensor.Int64)), Dims: dims(3), Int64Data: []int64{math.MinInt64, 0, math.MaxInt64}},
			tensor.MustFromSlice([]int64{math.MinInt64, 0, math.MaxInt64})},
		{"uint64_data uint64", &pb.TensorProto{DataType: ptr(int32(tensor.Uint64)), Dims: dims(2), Uint64Data: []uint64{math.MaxUint64, 7}},
			tensor.MustFromSlice([]uint64{math.MaxUint64, 7})},
		{"uint64_data uint32", &pb.TensorProto{DataType: ptr(int32(tensor.Uint32)), Dims: dims(2), Uint64Data: []uint64{math.MaxUint32, 7}},
			tensor.MustFromSlice([]uint32{math.MaxUint32, 7})},
		{"int32_data int32", &pb.TensorProto{DataType: ptr(int32(tensor.Int32)), Dims: dims(2), Int32Data: []int32{math.MinInt32, math.MaxInt32}},
			tensor.MustFromSlice([]int32{math.MinInt32, math.MaxInt32})},
		{"int32_data int16", &pb.TensorProto{DataType: ptr(int32(tensor.Int16)), Dims: dims(2), Int32Data: []int32{-32768, 32767}},
			tensor.MustFromSlice([]int16{-32768, 32767})},
		{"int32_data int8", &pb.TensorProto{DataType: ptr(int32(tensor.Int8)), Dims: dims(2), Int32Data: []int32{-128, 127}},
			tensor.MustFromSlice([]int8{-128, 127})},
		{"int32_data uint16", &pb.TensorProto{DataType: ptr(int32(tensor.Uint16)), Dims: dims(2), Int32Data: []int32{0, 65535}},
			tensor.MustFromSlice([]uint16{0, 65535})},
		{"int32_data uint8", &pb.TensorProto{DataType: ptr(int32(tensor.Uint8)), Dims: dims(2), Int32Data: []int32{0, 255}},
			tensor.MustFromSlice([]uint8{0, 255})},
		{"int32_data bool", &pb.TensorProto{DataType: ptr(int32(tensor.Bool)), Dims: dims(3), Int32Data: []int32{1, 0, 1}},
			tensor.MustFromSlice([]bool{true, false, true})},
		{"int32_data float16 bits", &pb.TensorProto{DataType: ptr(int32(tensor.Float16)), Dims: dims(2), Int32Data: []int32{0x3C00, 0xC000}},
			tensor.MustFromSlice([]float16.Float16{float16.Fromfloat32(1), float16.Fromfloat32(-2)})},
		{"int32_data bfloat16 bits", &pb.TensorProto{DataType: ptr(int32(tensor.BFloat16)), Dims: dims(2), Int32Data: []int32{0x3F80, 0xFF80}},
			tensor.MustFromSlice([]tensor.BF16{0x3F80, 0xFF80})},
		{"int32_data float8e4m3fn", &pb.TensorProto{DataType: ptr(int32(tensor.Float8E4M3FN)), Dims: dims(2), Int32Data: []int32{0x38, 0xFF}},
			tensor.MustFromSlice([]tensor.F8E4M3FN{0x38, 0xFF})},
		{"int32_data float8e4m3fnuz", &pb.TensorProto{DataType: ptr(int32(tensor.Float8E4M3FNUZ)), Dims: dims(1), Int32Data: []int32{0x80}},
			tensor.MustFromSlice([]tensor.F8E4M3FNUZ{0x80})},
		{"int32_data float8e5m2", &pb.TensorProto{DataType: ptr(int32(tensor.Float8E5M2)), Dims: dims(1), Int32Data: []int32{0x3C}},
			tensor.MustFromSlice([]tensor.F8E5M2{0x3C})},
		{"int32_data float8e5m2fnuz", &pb.TensorProto{DataType: ptr(int32(tensor.Float8E5M2FNUZ)), Dims: dims(1), Int32Data: []int32{0x40}},
			tensor.MustFromSlice([]tensor.F8E5M2FNUZ{0x40})},
		{"int32_data float8e8m0", &pb.TensorProto{DataType: ptr(int32(tensor.Float8E8M0)), Dims: dims(2), Int32Data: []int32{127, 255}},
			tensor.MustFromSlice([]tensor.F8E8M0{127, 255})},
		{"int32_data int4 packed, odd count", &pb.TensorProto{DataType: ptr(int32(tensor.Int4)), Dims: dims(3), Int32Data: []int32{0x7F, 0x08}},
			tensor.MustFromSlice([]tensor.I4{-1, 7, -8})},
		{"int32_data uint4 packed", &pb.TensorProto{DataType: ptr(int32(tensor.Uint4)), Dims: dims(2), Int32Data: []int32{0xE1}},
			tensor.MustFromSlice([]tensor.U4{1, 14})},
		{"int32_data float4e2m1 packed", &pb.TensorProto{DataType: ptr(int32(tensor.Float4E2M1)), Dims: dims(1, 1), Int32Data: []int32{0x0A}},
			tensor.MustFromSlice([]tensor.F4E2M1{0xA}, 1, 1)},
		{"int32_data int2 packed, odd count", &pb.TensorProto{DataType: ptr(int32(tensor.Int2)), Dims: dims(5), Int32Data: []int32{0b01_00_11_10, 0b11}},
			tensor.MustFromSlice([]tensor.I2{-2, -1, 0, 1, -1})},
		{"int32_data uint2 packed", &pb.TensorProto{DataType: ptr(int32(tensor.Uint2)), Dims: dims(4), Int32Data: []int32{0b11_10_01_00}},
			tensor.MustFromSlice([]tensor.U2{0, 1, 2, 3})},
		{"string_data", &pb.TensorProto{DataType: ptr(int32(tensor.String)), Dims: dims(2), StringData: [][]byte{[]byte("héllo"), {}}},
			tensor.MustFromSlice([]string{"héllo", ""})},
		{"scalar", &pb.TensorProto{DataType: ptr(int32(tensor.Int64)), Int64Data: []int64{42}},
			tensor.Scalar(int64(42))},
		{"empty, no data field", &pb.TensorProto{DataType: ptr(int32(tensor.Float)), Dims: dims(2, 0)},
			tensor.MustFromSlice([]float32{}, 2, 0)},
		{"empty string tensor", &pb.TensorProto{DataType: ptr(int32(tensor.String)), Dims: dims(0)},
			tensor.MustFromSlice([]string{}, 0)},
	}
	for _, tc := range tests {
		got, err := TensorFromProto(tc.tp, "")
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !got.Equal(tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestTensorFromProtoErrors feeds every kind of bad TensorProto; each must
// be an error naming the problem, and none may panic.
func TestTensorFromProtoErrors(t *testing.T) {
	f := ptr(int32(tensor.Float))
	huge := int64(math.MaxInt / 2)
	big := int64(math.MaxInt / 8) // fits an int, too many floats to be real
	tests := []struct {
		name   string
		tp     *pb.TensorProto
		want   string // in the message
		target error  // wrapped, if not nil
	}{
		{"nil", nil, "nil TensorProto", nil},
		{"missing data_type", &pb.TensorProto{Dims: []int64{1}, FloatData: []float32{1}}, "unknown data_type 0", tensor.ErrType},
		{"unknown data_type", &pb.TensorProto{DataType: ptr(int32(99)), Dims: []int64{1}}, "unknown data_type 99", tensor.ErrType},
		{"negative data_type", &pb.TensorProto{DataType: ptr(int32(-1))}, "unknown data_type -1", tensor.ErrType},
		{"negative dim", &pb.TensorProto{DataType: f, Dims: []int64{2, -1}}, "dims[1] is negative", tensor.ErrShape},
		{"overflowing dims", &pb.TensorProto{DataType: f, Dims: []int64{huge, huge, huge}}, "than an int can count", tensor.ErrShape},
		{"overflowing bytes", &pb.TensorProto{DataType: ptr(int32(tensor.Complex128)), Dims: []int64{big}}, "more bytes than an int can count", tensor.ErrShape},
		{"huge dims, tiny data", &pb.TensorProto{DataType: f, Dims: []int64{big}, RawData: []byte{1, 2, 3, 4}}, "raw_data has 4 bytes", tensor.ErrShape},
		{"huge dims, no data", &pb.TensorProto{DataType: f, Dims: []int64{big}}, "no data", tensor.ErrShape},
		{"dim beyond int64 on 32 bits, bytes beyond int on 64", &pb.TensorProto{DataType: f, Dims: []int64{math.MaxInt64}}, "invalid shape", tensor.ErrShape},
		{"segment", &pb.TensorProto{DataType: f, Dims: []int64{1}, FloatData: []float32{1}, Segment: &pb.TensorProto_Segment{}}, "segment", ErrUnsupported},
		{"short raw_data", &pb.TensorProto{DataType: f, Dims: []int64{2}, RawData: make([]byte, 7)}, "raw_data has 7 bytes, float of [2] needs 8", tensor.ErrShape},
		{"long raw_data", &pb.TensorProto{DataType: f, Dims: []int64{}, RawData: make([]byte, 5)}, "raw_data has 5 bytes", tensor.ErrShape},
		{"packed raw_data too long", &pb.TensorProto{DataType: ptr(int32(tensor.Int4)), Dims: []int64{3}, RawData: make([]byte, 3)}, "needs 2", tensor.ErrShape},
		{"float_data count", &pb.TensorProto{DataType: f, Dims: []int64{3}, FloatData: []float32{1, 2}}, "float_data has 2 values, shape [3] needs 3", tensor.ErrShape},
		{"complex64 odd float_data", &pb.TensorProto{DataType: ptr(int32(tensor.Complex64)), Dims: []int64{2}, FloatData: []float32{1, 2, 3}}, "needs 4", tensor.ErrShape},
		{"int32_data count", &pb.TensorProto{DataType: ptr(int32(tensor.Int8)), Dims: []int64{2}, Int32Data: []int32{1}}, "int32_data has 1 values", tensor.ErrShape},
		{"int4 int32_data count", &pb.TensorProto{DataType: ptr(int32(tensor.Int4)), Dims: []int64{5}, Int32Data: []int32{1, 2}}, "needs 3 (2 elements a value)", tensor.ErrShape},
		{"string_data count", &pb.TensorProto{DataType: ptr(int32(tensor.String)), Dims: []int64{2}, StringData: [][]byte{{'a'}}}, "string_data has 1 values", tensor.ErrShape},
		{"two data fields", &pb.TensorProto{DataType: f, Dims: []int64{1}, FloatData: []float32{1}, RawData: make([]byte, 4)}, "both float_data and raw_data", nil},
		{"wrong typed field", &pb.TensorProto{DataType: ptr(int32(tensor.Int64)), Dims: []int64{1}, Int32Data: []int32{1}}, "int64 data is stored in int64_data or raw_data, not int32_data", tensor.ErrType},
		{"string in raw_data", &pb.TensorProto{DataType: ptr(int32(tensor.String)), Dims: []int64{1}, RawData: []byte{'a'}}, "string_data, not raw_data", tensor.ErrType},
		{"string in int32_data", &pb.TensorProto{DataType: ptr(int32(tensor.String)), Dims: []int64{1}, Int32Data: []int32{1}}, "not int32_data", tensor.ErrType},
		{"bool raw byte 2", &pb.TensorProto{DataType: ptr(int32(tensor.Bool)), Dims: []int64{2}, RawData: []byte{1, 2}}, "bool element 1 is 2, not 0 or 1", tensor.ErrType},
		{"bool int32_data 2", &pb.TensorProto{DataType: ptr(int32(tensor.Bool)), Dims: []int64{1}, Int32Data: []int32{2}}, "int32_data[0] = 2 is out of range for bool", tensor.ErrType},
		{"int8 out of range", &pb.TensorProto{DataType: ptr(int32(tensor.Int8)), Dims: []int64{1}, Int32Data: []int32{128}}, "out of range for int8", tensor.ErrType},
		{"uint8 negative", &pb.TensorProto{DataType: ptr(int32(tensor.Uint8)), Dims: []int64{1}, Int32Data: []int32{-1}}, "out of range for uint8", tensor.ErrType},
		{"float16 bits out of range", &pb.TensorProto{DataType: ptr(int32(tensor.Float16)), Dims: []int64{1}, Int32Data: []int32{0x10000}}, "out of range for float16", tensor.ErrType},
		{"uint32 out of range", &pb.TensorProto{DataType: ptr(int32(tensor.Uint32)), Dims: []int64{1}, Uint64Data: []uint64{1 << 32}}, "out of range for uint32", tensor.ErrType},
		{"int4 out of range", &pb.TensorProto{DataType: ptr(int32(tensor.Int4)), Dims: []int64{2}, Int32Data: []int32{-9}}, "int32_data[0] = -9 is not a byte of packed int4 values", tensor.ErrType},
		{"uint4 out of range", &pb.TensorProto{DataType: ptr(int32(tensor.Uint4)), Dims: []int64{2}, Int32Data: []int32{256}}, "not a byte of packed uint4", tensor.ErrType},
		{"external without EXTERNAL", &pb.TensorProto{DataType: f, Dims: []int64{1}, ExternalData: []*pb.StringStringEntryProto{{Key: ptr("location"), Value: ptr("w.bin")}}}, "data_location is not EXTERNAL", nil},
		{"external with no folder", &pb.TensorProto{DataType: f, Dims: []int64{1}, DataLocation: pb.TensorProto_EXTERNAL.Enum(), ExternalData: []*pb.StringStringEntryProto{{Key: ptr("location"), Value: ptr("w.bin")}}}, "no model folder", ErrExternalPath},
	}
	for _, tc := range tests {
		got, err := TensorFromProto(tc.tp, "")
		if err == nil {
			t.Errorf("%s: no error, got %v", tc.name, got)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %q does not say %q", tc.name, err, tc.want)
		}
		if tc.target != nil && !errors.Is(err, tc.target) {
			t.Errorf("%s: error %q does not wrap %v", tc.name, err, tc.target)
		}
	}
}

func TestTensorToProtoNil(t *testing.T) {
	if _, err := TensorToProto(nil, "x"); err == nil {
		t.Error("TensorToProto(nil) gave no error")
	}
}

// TestBigEndianCopy checks the byte-swapping path that big-endian machines
// take, by running it directly.
func TestBigEndianCopy(t *testing.T) {
	saved := nativeLittleEndian
	defer func() { nativeLittleEndian = saved }()
	nativeLittleEndian = false
	dst := make([]byte, 8)
	copyLittleEndian(dst, []byte{1, 2, 3, 4, 5, 6, 7, 8}, 4)
	if want := []byte{4, 3, 2, 1, 8, 7, 6, 5}; string(dst) != string(want) {
		t.Errorf("swapped by 4: %v, want %v", dst, want)
	}
	copyLittleEndian(dst, []byte{1, 2, 3, 4, 5, 6, 7, 8}, 8)
	if want := []byte{8, 7, 6, 5, 4, 3, 2, 1}; string(dst) != string(want) {
		t.Errorf("swapped by 8: %v, want %v", dst, want)
	}
	if swapUnit(tensor.Complex64) != 4 || swapUnit(tensor.Complex128) != 8 || swapUnit(tensor.Int16) != 2 {
		t.Error("complex types must swap their two halves separately")
	}
}
