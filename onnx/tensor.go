package onnx

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// ErrUnsupported is wrapped by the errors about valid ONNX content that
// onnxshape does not read: segmented tensors, sparse tensors, maps, nested
// sequences. It is the kind tensor.ErrUnsupported, which errors.Is also
// matches with ops.ErrUnsupported.
var ErrUnsupported = tensor.ErrUnsupported

// nativeLittleEndian is true on little-endian machines, where a tensor's
// storage and ONNX raw_data have the same byte order and convert by copy.
var nativeLittleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// TensorFromProto converts a TensorProto into a Tensor. On little-endian
// machines the tensor may share the storage of tp's raw_data instead of
// copying it: neither is to be modified afterwards (tensors never are).
//
// baseDir is the folder of the model, where external data files live; ""
// refuses external data. Every storage form ONNX uses is read: raw_data
// (little-endian, sub-byte types packed low bits first), the typed repeated
// fields, string_data, and external data files. The data length is checked
// against dims before anything sized from dims is allocated, so a hostile
// file cannot make TensorFromProto allocate more than a few times its own
// size (or, for external data, the size of the data file).
func TensorFromProto(tp *pb.TensorProto, baseDir string) (*tensor.Tensor, error) {
	if tp == nil {
		return nil, errors.New("onnx: nil TensorProto")
	}
	t, err := tensorFromProto(tp, baseDir)
	if err != nil {
		return nil, fmt.Errorf("onnx: tensor %q: %w", tp.GetName(), err)
	}
	return t, nil
}

func tensorFromProto(tp *pb.TensorProto, baseDir string) (*tensor.Tensor, error) {
	dt := tensor.DataType(tp.GetDataType())
	if !dt.Valid() {
		return nil, fmt.Errorf("%w: unknown data_type %d", tensor.ErrType, tp.GetDataType())
	}
	shape, err := shapeFromDims(tp.GetDims())
	if err != nil {
		return nil, err
	}
	n, err := tensor.NumElements(shape)
	if err != nil {
		return nil, err
	}
	// The storage size must fit an int too, whatever the data fields hold.
	if _, err := tensor.ByteSize(dt, shape); err != nil {
		return nil, err
	}
	if tp.Segment != nil {
		return nil, fmt.Errorf("%w: segmented tensor (segment is set)", ErrUnsupported)
	}

	fields := presentFields(tp)
	if len(fields) > 1 {
		return nil, fmt.Errorf("data is in both %s and %s; a tensor holds its data in one field", fields[0], fields[1])
	}
	external := tp.GetDataLocation() == pb.TensorProto_EXTERNAL
	if !external && len(tp.GetExternalData()) > 0 {
		return nil, errors.New("external_data is set but data_location is not EXTERNAL")
	}
	if external {
		if len(fields) > 0 {
			return nil, fmt.Errorf("data_location is EXTERNAL but %s is set too", fields[0])
		}
		if dt == tensor.String {
			return nil, errors.New("string tensors cannot be stored as external data")
		}
		return fromExternal(tp, baseDir, dt, shape, n)
	}

	if len(fields) == 0 {
		if n != 0 {
			return nil, fmt.Errorf("%w: no data for %v (%d elements)", tensor.ErrShape, shape, n)
		}
		return tensor.New(dt, shape...)
	}
	field := fields[0]
	if want := typedField(dt); field != "raw_data" && field != want {
		return nil, fmt.Errorf("%w: %v data is stored in %s or raw_data, not %s", tensor.ErrType, dt, want, field)
	}
	switch field {
	case "raw_data":
		return fromRaw(dt, shape, n, tp.GetRawData())
	case "string_data":
		return fromStringData(shape, n, tp.GetStringData())
	case "float_data":
		return fromFloatData(dt, shape, n, tp.GetFloatData())
	case "double_data":
		return fromDoubleData(dt, shape, n, tp.GetDoubleData())
	case "int64_data":
		return fromInt64Data(shape, n, tp.GetInt64Data())
	case "uint64_data":
		return fromUint64Data(dt, shape, n, tp.GetUint64Data())
	default: // int32_data
		return fromInt32Data(dt, shape, n, tp.GetInt32Data())
	}
}

// shapeFromDims converts dims, refusing negative ones and ones an int cannot
// hold.
func shapeFromDims(dims []int64) ([]int, error) {
	shape := make([]int, len(dims))
	for i, d := range dims {
		if d < 0 {
			return nil, fmt.Errorf("%w: dims[%d] is negative (%d)", tensor.ErrShape, i, d)
		}
		if uint64(d) > math.MaxInt {
			return nil, fmt.Errorf("%w: dims[%d] (%d) is too large", tensor.ErrShape, i, d)
		}
		shape[i] = int(d)
	}
	return shape, nil
}

// presentFields lists the data fields of tp that hold something, in the
// order of onnx.proto.
func presentFields(tp *pb.TensorProto) []string {
	var f []string
	if len(tp.FloatData) > 0 {
		f = append(f, "float_data")
	}
	if len(tp.Int32Data) > 0 {
		f = append(f, "int32_data")
	}
	if len(tp.StringData) > 0 {
		f = append(f, "string_data")
	}
	if len(tp.Int64Data) > 0 {
		f = append(f, "int64_data")
	}
	if len(tp.RawData) > 0 {
		f = append(f, "raw_data")
	}
	if len(tp.DoubleData) > 0 {
		f = append(f, "double_data")
	}
	if len(tp.Uint64Data) > 0 {
		f = append(f, "uint64_data")
	}
	return f
}

// typedField names the repeated field onnx.proto assigns to dt.
func typedField(dt tensor.DataType) string {
	switch dt {
	case tensor.Float, tensor.Complex64:
		return "float_data"
	case tensor.Double, tensor.Complex128:
		return "double_data"
	case tensor.Int64:
		return "int64_data"
	case tensor.Uint32, tensor.Uint64:
		return "uint64_data"
	case tensor.String:
		return "string_data"
	}
	return "int32_data"
}

// perByte is how many elements of dt one byte of raw_data packs: 2 for the
// 4-bit types, 4 for the 2-bit ones, 0 for the others.
func perByte(dt tensor.DataType) int {
	if b := dt.Bits(); b < 8 {
		return 8 / b
	}
	return 0
}

// packedLen is the number of bytes that hold n elements, per to a byte.
func packedLen(n, per int) int {
	l := n / per
	if n%per != 0 {
		l++
	}
	return l
}

// rawLen is the length of raw_data for n elements of dt (n*Size fits an int:
// the caller has checked ByteSize).
func rawLen(dt tensor.DataType, n int) int {
	if per := perByte(dt); per > 0 {
		return packedLen(n, per)
	}
	return n * dt.Size()
}

// fromRaw builds the tensor from little-endian raw_data.
func fromRaw(dt tensor.DataType, shape []int, n int, raw []byte) (*tensor.Tensor, error) {
	if dt == tensor.String {
		return nil, fmt.Errorf("%w: string tensors are stored in string_data, not raw_data", tensor.ErrType)
	}
	if want := rawLen(dt, n); len(raw) != want {
		return nil, fmt.Errorf("%w: raw_data has %d bytes, %v of %v needs %d", tensor.ErrShape, len(raw), dt, shape, want)
	}
	if nativeLittleEndian && perByte(dt) == 0 && len(raw) > 0 {
		if err := checkBools(dt, raw); err != nil {
			return nil, err
		}
		// raw_data is already the storage: share it when its alignment
		// allows (protobuf allocates each bytes field on its own, so it
		// nearly always does), so that a weight is held once, not twice.
		if t, err := tensor.Wrap(dt, shape, raw); err == nil {
			return t, nil
		}
	}
	t, err := tensor.New(dt, shape...)
	if err != nil {
		return nil, err
	}
	dst := t.Bytes()
	if per := perByte(dt); per > 0 {
		unpack(dt, dst, raw)
		return t, nil
	}
	if err := checkBools(dt, raw); err != nil {
		return nil, err
	}
	copyLittleEndian(dst, raw, swapUnit(dt))
	return t, nil
}

// fromExternal reads a tensor whose raw data is in a file beside the model.
// Where the file's bytes are the storage's bytes (little-endian machine,
// whole-byte type) they are read straight into the tensor, so a large
// weight is held once in memory, not twice.
func fromExternal(tp *pb.TensorProto, baseDir string, dt tensor.DataType, shape []int, n int) (*tensor.Tensor, error) {
	want := rawLen(dt, n)
	if !nativeLittleEndian || perByte(dt) > 0 {
		var raw []byte
		err := readExternal(tp, baseDir, want, func() ([]byte, error) {
			raw = make([]byte, want)
			return raw, nil
		})
		if err != nil {
			return nil, err
		}
		return fromRaw(dt, shape, n, raw)
	}
	var t *tensor.Tensor
	err := readExternal(tp, baseDir, want, func() ([]byte, error) {
		var err error
		t, err = tensor.New(dt, shape...)
		if err != nil {
			return nil, err
		}
		return t.Bytes(), nil
	})
	if err != nil {
		return nil, err
	}
	if err := checkBools(dt, t.Bytes()); err != nil {
		return nil, err
	}
	return t, nil
}

// checkBools refuses bool storage bytes other than 0 and 1.
func checkBools(dt tensor.DataType, b []byte) error {
	if dt != tensor.Bool {
		return nil
	}
	for i, v := range b {
		if v > 1 {
			return fmt.Errorf("%w: bool element %d is %d, not 0 or 1", tensor.ErrType, i, v)
		}
	}
	return nil
}

// swapUnit is the size of the scalars whose bytes a big-endian machine must
// reverse: the element size, or half of it for the complex types.
func swapUnit(dt tensor.DataType) int {
	if dt == tensor.Complex64 || dt == tensor.Complex128 {
		return dt.Size() / 2
	}
	return dt.Size()
}

// copyLittleEndian copies little-endian scalars of unit bytes from src into
// dst in the machine's byte order (the same loop serves the other direction).
func copyLittleEndian(dst, src []byte, unit int) {
	if nativeLittleEndian || unit == 1 {
		copy(dst, src)
		return
	}
	for i := 0; i+unit <= len(src); i += unit {
		for k := 0; k < unit; k++ {
			dst[i+k] = src[i+unit-1-k]
		}
	}
}

// unpack spreads the packed elements of src (low bits first) over dst, one a
// byte, sign-extending int4 and int2.
func unpack(dt tensor.DataType, dst, src []byte) {
	bits := uint(dt.Bits())
	per := 8 / int(bits)
	mask := byte(1)<<bits - 1
	signBit := byte(1) << (bits - 1)
	signed := dt.IsSigned()
	for j, b := range src[:packedLen(len(dst), per)] {
		elems := dst[j*per : min(j*per+per, len(dst))]
		for k := range elems {
			v := b >> (uint(k) * bits) & mask
			if signed && v&signBit != 0 {
				v |= ^mask
			}
			elems[k] = v
		}
	}
}

// pack is the inverse of unpack; padding bits in the last byte are zero.
func pack(dt tensor.DataType, src []byte) []byte {
	bits := uint(dt.Bits())
	per := 8 / int(bits)
	mask := byte(1)<<bits - 1
	dst := make([]byte, packedLen(len(src), per))
	for j := range dst {
		elems := src[j*per : min(j*per+per, len(src))]
		var b byte
		for k, v := range elems {
			b |= (v & mask) << (uint(k) * bits)
		}
		dst[j] = b
	}
	return dst
}

func countError(field string, got, want int, shape []int) error {
	return fmt.Errorf("%w: %s has %d values, shape %v needs %d", tensor.ErrShape, field, got, shape, want)
}

func fromStringData(shape []int, n int, data [][]byte) (*tensor.Tensor, error) {
	if len(data) != n {
		return nil, countError("string_data", len(data), n, shape)
	}
	s := make([]string, n)
	for i, b := range data {
		s[i] = string(b)
	}
	return tensor.FromSlice(s, shape...)
}

// fromFloatData reads float and complex64 (real, imaginary pairs) tensors.
func fromFloatData(dt tensor.DataType, shape []int, n int, data []float32) (*tensor.Tensor, error) {
	want := n
	if dt == tensor.Complex64 {
		want = 2 * n
	}
	if len(data) != want {
		return nil, countError("float_data", len(data), want, shape)
	}
	t, err := tensor.New(dt, shape...)
	if err != nil {
		return nil, err
	}
	dst := t.Bytes()
	for i, f := range data {
		binary.NativeEndian.PutUint32(dst[4*i:], math.Float32bits(f))
	}
	return t, nil
}

// fromDoubleData reads double and complex128 (real, imaginary pairs) tensors.
func fromDoubleData(dt tensor.DataType, shape []int, n int, data []float64) (*tensor.Tensor, error) {
	want := n
	if dt == tensor.Complex128 {
		want = 2 * n
	}
	if len(data) != want {
		return nil, countError("double_data", len(data), want, shape)
	}
	t, err := tensor.New(dt, shape...)
	if err != nil {
		return nil, err
	}
	dst := t.Bytes()
	for i, f := range data {
		binary.NativeEndian.PutUint64(dst[8*i:], math.Float64bits(f))
	}
	return t, nil
}

func fromInt64Data(shape []int, n int, data []int64) (*tensor.Tensor, error) {
	if len(data) != n {
		return nil, countError("int64_data", len(data), n, shape)
	}
	t, err := tensor.New(tensor.Int64, shape...)
	if err != nil {
		return nil, err
	}
	dst := t.Bytes()
	for i, v := range data {
		binary.NativeEndian.PutUint64(dst[8*i:], uint64(v))
	}
	return t, nil
}

// fromUint64Data reads uint32 and uint64 tensors.
func fromUint64Data(dt tensor.DataType, shape []int, n int, data []uint64) (*tensor.Tensor, error) {
	if len(data) != n {
		return nil, countError("uint64_data", len(data), n, shape)
	}
	t, err := tensor.New(dt, shape...)
	if err != nil {
		return nil, err
	}
	dst := t.Bytes()
	for i, v := range data {
		if dt == tensor.Uint32 {
			if v > math.MaxUint32 {
				return nil, fmt.Errorf("%w: uint64_data[%d] = %d is out of range for uint32", tensor.ErrType, i, v)
			}
			binary.NativeEndian.PutUint32(dst[4*i:], uint32(v))
		} else {
			binary.NativeEndian.PutUint64(dst[8*i:], v)
		}
	}
	return t, nil
}

// int32Range is the range of the int32_data values of dt: the values for
// the integer types and bool, the unsigned bit patterns for the float16 and
// float8 types, one byte of packed elements for the 4-bit and 2-bit types.
func int32Range(dt tensor.DataType) (lo, hi int32) {
	switch dt {
	case tensor.Int32:
		return math.MinInt32, math.MaxInt32
	case tensor.Int16:
		return math.MinInt16, math.MaxInt16
	case tensor.Int8:
		return math.MinInt8, math.MaxInt8
	case tensor.Bool:
		return 0, 1
	case tensor.Uint16, tensor.Float16, tensor.BFloat16:
		return 0, math.MaxUint16
	}
	return 0, math.MaxUint8 // uint8, float8 types, packed sub-byte types
}

// fromInt32Data reads the types onnx.proto stores in int32_data.
func fromInt32Data(dt tensor.DataType, shape []int, n int, data []int32) (*tensor.Tensor, error) {
	want := n
	per := perByte(dt)
	if per > 0 {
		want = packedLen(n, per)
	}
	if len(data) != want {
		if per > 0 {
			return nil, fmt.Errorf("%w: int32_data has %d values, shape %v of %v needs %d (%d elements a value)",
				tensor.ErrShape, len(data), shape, dt, want, per)
		}
		return nil, countError("int32_data", len(data), want, shape)
	}
	lo, hi := int32Range(dt)
	for i, v := range data {
		if v < lo || v > hi {
			if per > 0 {
				return nil, fmt.Errorf("%w: int32_data[%d] = %d is not a byte of packed %v values", tensor.ErrType, i, v, dt)
			}
			return nil, fmt.Errorf("%w: int32_data[%d] = %d is out of range for %v", tensor.ErrType, i, v, dt)
		}
	}
	t, err := tensor.New(dt, shape...)
	if err != nil {
		return nil, err
	}
	dst := t.Bytes()
	if per > 0 {
		packed := make([]byte, len(data))
		for i, v := range data {
			packed[i] = byte(v)
		}
		unpack(dt, dst, packed)
		return t, nil
	}
	switch dt.Size() {
	case 1:
		for i, v := range data {
			dst[i] = byte(v)
		}
	case 2:
		for i, v := range data {
			binary.NativeEndian.PutUint16(dst[2*i:], uint16(v))
		}
	default:
		for i, v := range data {
			binary.NativeEndian.PutUint32(dst[4*i:], uint32(v))
		}
	}
	return t, nil
}

// TensorToProto converts t into a TensorProto named name: dims and
// data_type set, the elements in raw_data (little-endian, sub-byte types
// packed low bits first) or, for strings, in string_data.
func TensorToProto(t *tensor.Tensor, name string) (*pb.TensorProto, error) {
	if t == nil {
		return nil, errors.New("onnx: nil tensor")
	}
	dt := t.DataType()
	if !dt.Valid() {
		return nil, fmt.Errorf("onnx: tensor %q: %w: %v is not an ONNX element type", name, tensor.ErrType, dt)
	}
	tp := &pb.TensorProto{DataType: ptr(int32(dt))}
	if name != "" {
		tp.Name = ptr(name)
	}
	tp.Dims = make([]int64, t.Rank())
	for i, d := range t.Shape() {
		tp.Dims[i] = int64(d)
	}
	switch {
	case dt == tensor.String:
		tp.StringData = make([][]byte, t.Len())
		for i, s := range t.Strings() {
			tp.StringData[i] = []byte(s)
		}
	case perByte(dt) > 0:
		tp.RawData = pack(dt, t.Bytes())
	default:
		tp.RawData = make([]byte, len(t.Bytes()))
		copyLittleEndian(tp.RawData, t.Bytes(), swapUnit(dt))
	}
	return tp, nil
}

func ptr[T any](v T) *T { return &v }
