package tensor

import "github.com/x448/float16"

// Go types for the ONNX element types that Go has no type for. Each is the
// bit pattern of one element; the sub-byte ones (I4, U4, F4E2M1, I2, U2) hold
// one element each, in the low bits for the unsigned and float types and as a
// sign-extended value for the signed ones.
type (
	BF16       uint16 // bfloat16: the upper half of an IEEE float32
	F8E4M3FN   uint8  // float8e4m3fn
	F8E4M3FNUZ uint8  // float8e4m3fnuz
	F8E5M2     uint8  // float8e5m2
	F8E5M2FNUZ uint8  // float8e5m2fnuz
	F8E8M0     uint8  // float8e8m0: a power of two, 2^(v-127); 0xFF is NaN
	F4E2M1     uint8  // float4e2m1, in the low 4 bits
	I4         int8   // int4, in [-8, 7]
	U4         uint8  // uint4, in [0, 15]
	I2         int8   // int2, in [-2, 1]
	U2         uint8  // uint2, in [0, 3]
)

// Element is the set of Go types a Tensor's elements can be read or built
// from, one for each ONNX element type.
type Element interface {
	float32 | float64 | int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 |
		bool | string | complex64 | complex128 | float16.Float16 | BF16 |
		F8E4M3FN | F8E4M3FNUZ | F8E5M2 | F8E5M2FNUZ | F8E8M0 | F4E2M1 | I4 | U4 | I2 | U2
}

// TypeOf returns the ONNX element type that the Go type T stands for.
func TypeOf[T Element]() DataType {
	var zero T
	switch any(zero).(type) {
	case float32:
		return Float
	case float64:
		return Double
	case int8:
		return Int8
	case int16:
		return Int16
	case int32:
		return Int32
	case int64:
		return Int64
	case uint8:
		return Uint8
	case uint16:
		return Uint16
	case uint32:
		return Uint32
	case uint64:
		return Uint64
	case bool:
		return Bool
	case string:
		return String
	case complex64:
		return Complex64
	case complex128:
		return Complex128
	case float16.Float16:
		return Float16
	case BF16:
		return BFloat16
	case F8E4M3FN:
		return Float8E4M3FN
	case F8E4M3FNUZ:
		return Float8E4M3FNUZ
	case F8E5M2:
		return Float8E5M2
	case F8E5M2FNUZ:
		return Float8E5M2FNUZ
	case F8E8M0:
		return Float8E8M0
	case F4E2M1:
		return Float4E2M1
	case I4:
		return Int4
	case U4:
		return Uint4
	case I2:
		return Int2
	case U2:
		return Uint2
	}
	return Undefined
}

// validSubByte reports whether the byte b holds a legal element of the
// sub-byte type t (always true for the other types).
func validSubByte(t DataType, b byte) bool {
	switch t {
	case Uint4, Float4E2M1:
		return b <= 0x0F
	case Int4:
		return int8(b) >= -8 && int8(b) <= 7
	case Uint2:
		return b <= 3
	case Int2:
		return int8(b) >= -2 && int8(b) <= 1
	case Bool:
		return b <= 1
	}
	return true
}
