package tensor

import "fmt"

// DataType is an ONNX element type. Its values are those of
// TensorProto.DataType in onnx.proto, so a DataType read from a model file
// needs no translation.
type DataType int32

// The ONNX element types, numbered as in onnx.proto.
const (
	Undefined      DataType = 0
	Float          DataType = 1
	Uint8          DataType = 2
	Int8           DataType = 3
	Uint16         DataType = 4
	Int16          DataType = 5
	Int32          DataType = 6
	Int64          DataType = 7
	String         DataType = 8
	Bool           DataType = 9
	Float16        DataType = 10
	Double         DataType = 11
	Uint32         DataType = 12
	Uint64         DataType = 13
	Complex64      DataType = 14
	Complex128     DataType = 15
	BFloat16       DataType = 16
	Float8E4M3FN   DataType = 17
	Float8E4M3FNUZ DataType = 18
	Float8E5M2     DataType = 19
	Float8E5M2FNUZ DataType = 20
	Uint4          DataType = 21
	Int4           DataType = 22
	Float4E2M1     DataType = 23
	Float8E8M0     DataType = 24
	Uint2          DataType = 25
	Int2           DataType = 26
)

type typeInfo struct {
	name string // ONNX spelling, as in tensor(float16)
	size int    // bytes per element in memory; 0 for String
	bits int    // bits per element in a packed TensorProto
}

var types = [...]typeInfo{
	Undefined:      {"undefined", 0, 0},
	Float:          {"float", 4, 32},
	Uint8:          {"uint8", 1, 8},
	Int8:           {"int8", 1, 8},
	Uint16:         {"uint16", 2, 16},
	Int16:          {"int16", 2, 16},
	Int32:          {"int32", 4, 32},
	Int64:          {"int64", 8, 64},
	String:         {"string", 0, 0},
	Bool:           {"bool", 1, 8},
	Float16:        {"float16", 2, 16},
	Double:         {"double", 8, 64},
	Uint32:         {"uint32", 4, 32},
	Uint64:         {"uint64", 8, 64},
	Complex64:      {"complex64", 8, 64},
	Complex128:     {"complex128", 16, 128},
	BFloat16:       {"bfloat16", 2, 16},
	Float8E4M3FN:   {"float8e4m3fn", 1, 8},
	Float8E4M3FNUZ: {"float8e4m3fnuz", 1, 8},
	Float8E5M2:     {"float8e5m2", 1, 8},
	Float8E5M2FNUZ: {"float8e5m2fnuz", 1, 8},
	Uint4:          {"uint4", 1, 4},
	Int4:           {"int4", 1, 4},
	Float4E2M1:     {"float4e2m1", 1, 4},
	Float8E8M0:     {"float8e8m0", 1, 8},
	Uint2:          {"uint2", 1, 2},
	Int2:           {"int2", 1, 2},
}

// Valid reports whether t is one of the ONNX element types (Undefined excluded).
func (t DataType) Valid() bool { return t > Undefined && int(t) < len(types) }

// String returns the ONNX name of the type: "float", "int64", "float8e4m3fn".
func (t DataType) String() string {
	if t >= 0 && int(t) < len(types) {
		return types[t].name
	}
	return fmt.Sprintf("DataType(%d)", int32(t))
}

// Size is the number of bytes one element takes in a Tensor's storage.
// Sub-byte types (the 4-bit and 2-bit ones) are held unpacked, one element a
// byte, so that every operator moves them by element; they are packed only
// in the ONNX file format. Size is 0 for String and for invalid types.
func (t DataType) Size() int {
	if t.Valid() {
		return types[t].size
	}
	return 0
}

// Bits is the width of one element as ONNX packs it in raw_data: 4 for
// int4, uint4 and float4e2m1, 2 for int2 and uint2, Size()*8 otherwise.
func (t DataType) Bits() int {
	if t.Valid() {
		return types[t].bits
	}
	return 0
}

// IsFloat reports whether t is a floating-point type (complex excluded).
func (t DataType) IsFloat() bool {
	switch t {
	case Float, Double, Float16, BFloat16, Float8E4M3FN, Float8E4M3FNUZ,
		Float8E5M2, Float8E5M2FNUZ, Float4E2M1, Float8E8M0:
		return true
	}
	return false
}

// IsInteger reports whether t is a signed or unsigned integer type.
func (t DataType) IsInteger() bool {
	switch t {
	case Uint8, Int8, Uint16, Int16, Int32, Int64, Uint32, Uint64, Uint4, Int4, Uint2, Int2:
		return true
	}
	return false
}

// IsSigned reports whether t is a signed integer type.
func (t DataType) IsSigned() bool {
	switch t {
	case Int8, Int16, Int32, Int64, Int4, Int2:
		return true
	}
	return false
}

// ParseDataType returns the type with the ONNX name s ("float", "int4", ...).
func ParseDataType(s string) (DataType, error) {
	for i, ti := range types {
		if i != 0 && ti.name == s {
			return DataType(i), nil
		}
	}
	return Undefined, fmt.Errorf("unknown ONNX data type %q", s)
}

// AllTypes lists every valid ONNX element type in enum order.
func AllTypes() []DataType {
	out := make([]DataType, 0, len(types)-1)
	for i := 1; i < len(types); i++ {
		out = append(out, DataType(i))
	}
	return out
}
