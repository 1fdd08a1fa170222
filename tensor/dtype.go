package tensor

import (
	"fmt"
	"strings"
)

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

// ParseDataType returns the type named s: its ONNX name ("float", "int4",
// "float8e4m3fn"), the same in any case or inside "tensor(...)", the enum
// name of onnx.proto ("FLOAT", "FLOAT16"), or a common spelling of NumPy
// and the ML frameworks ("float32", "float64", "fp16", "half", "bf16",
// "boolean"). The error lists the ONNX names.
func ParseDataType(s string) (DataType, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	if inner, ok := strings.CutPrefix(name, "tensor("); ok {
		name = strings.TrimSuffix(inner, ")")
	}
	if dt, ok := dataTypeAliases[name]; ok {
		return dt, nil
	}
	names := make([]string, 0, len(types)-1)
	for i, ti := range types {
		if i == 0 {
			continue
		}
		if ti.name == name {
			return DataType(i), nil
		}
		names = append(names, ti.name)
	}
	return Undefined, fmt.Errorf("unknown ONNX data type %q (want one of %s)", s, strings.Join(names, ", "))
}

// dataTypeAliases are the other spellings ParseDataType reads, lower case.
var dataTypeAliases = map[string]DataType{
	"float32": Float, "fp32": Float, "f32": Float, "single": Float,
	"float64": Double, "fp64": Double, "f64": Double,
	"float16": Float16, "fp16": Float16, "f16": Float16, "half": Float16,
	"bf16": BFloat16, "bfloat": BFloat16,
	"boolean": Bool, "bool_": Bool,
	"i8": Int8, "i16": Int16, "i32": Int32, "i64": Int64,
	"u8": Uint8, "u16": Uint16, "u32": Uint32, "u64": Uint64,
	"str": String, "complex": Complex64,
}

// AllTypes lists every valid ONNX element type in enum order.
func AllTypes() []DataType {
	out := make([]DataType, 0, len(types)-1)
	for i := 1; i < len(types); i++ {
		out = append(out, DataType(i))
	}
	return out
}
