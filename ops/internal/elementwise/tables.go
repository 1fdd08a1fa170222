package elementwise

import (
	"math"
	"unsafe"

	"github.com/x448/float16"

	"github.com/onnxshape/onnxshape/tensor"
)

// The per-type kernel tables of the elementwise operators: an operator
// hands its loops for each Go type and gets back the table package ops
// dispatches on by the input's tensor.DataType.

// Element type groups the engine's kernels are generic over.
type (
	Integer interface {
		~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
	}
	SignedInteger interface {
		~int8 | ~int16 | ~int32 | ~int64
	}
	Floating     interface{ ~float32 | ~float64 }
	Number       interface{ Integer | Floating }
	SignedNumber interface{ SignedInteger | Floating }
)

// HasZero reports whether an integer tensor holds a zero (a divisor SONNX
// leaves undefined).
func HasZero(t *tensor.Tensor) bool {
	b := t.Bytes()
	size := t.DataType().Size()
	for i := 0; i+size <= len(b); i += size {
		zero := true
		for _, c := range b[i : i+size] {
			if c != 0 {
				zero = false
				break
			}
		}
		if zero {
			return true
		}
	}
	return false
}

// NumberBinaries builds an operator's table over the integer types (ints
// in the order uint8, uint16, uint32, uint64, int8, int16, int32, int64;
// nil where the operator has none) and the float types, float16 and
// bfloat16 through the float32 loops.
func NumberBinaries[O any](ints [8]BinaryKernel, f32 BinarySpans[float32, float32, O], f64 BinaryKernel) map[tensor.DataType]BinaryKernel {
	t := HalfBinaries(f32)
	t[tensor.Float] = f32
	t[tensor.Double] = f64
	for i, dt := range IntOrder {
		if ints[i] != nil {
			t[dt] = ints[i]
		}
	}
	return t
}

// IntOrder is the order of the integer kernels NumberBinaries and
// NumberUnaries take.
var IntOrder = [8]tensor.DataType{tensor.Uint8, tensor.Uint16, tensor.Uint32, tensor.Uint64, tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64}

// NumberUnaries is NumberBinaries for a unary operator.
func NumberUnaries[O any](ints [8]UnaryKernel, f32 UnarySpan[float32, O], f64 UnaryKernel) map[tensor.DataType]UnaryKernel {
	t := HalfUnaries(f32)
	t[tensor.Float] = f32
	t[tensor.Double] = f64
	for i, dt := range IntOrder {
		if ints[i] != nil {
			t[dt] = ints[i]
		}
	}
	return t
}

// FloatFunction is the table of a unary operator over the float types
// defined by its float64 function f: float32 is computed in float64 and
// rounded once, float16 and bfloat16 through float32.
func FloatFunction(f func(float64) float64) map[tensor.DataType]UnaryKernel {
	return NumberUnaries([8]UnaryKernel{}, Unary(func(x float32) float32 { return float32(f(float64(x))) }), Unary(f))
}

// Float32Function is the table of a unary operator over the float types
// whose float32 loop is f32 (one of ops/internal/mathf's), float16 and
// bfloat16 through it, and float64 f64.
func Float32Function(f32 UnarySpan[float32, float32], f64 func(float64) float64) map[tensor.DataType]UnaryKernel {
	return NumberUnaries([8]UnaryKernel{}, f32, Unary(f64))
}

// NumberFunction is FloatFunction that also serves the integer types: the
// float64 result converted to the integer type as C converts (toward zero,
// saturated at the type's range, NaN as 0).
func NumberFunction(f func(float64) float64) map[tensor.DataType]UnaryKernel {
	return NumberUnaries([8]UnaryKernel{
		Unary(func(x uint8) uint8 { return ConvertFloat[uint8](f(float64(x))) }),
		Unary(func(x uint16) uint16 { return ConvertFloat[uint16](f(float64(x))) }),
		Unary(func(x uint32) uint32 { return ConvertFloat[uint32](f(float64(x))) }),
		Unary(func(x uint64) uint64 { return ConvertFloat[uint64](f(float64(x))) }),
		Unary(func(x int8) int8 { return ConvertFloat[int8](f(float64(x))) }),
		Unary(func(x int16) int16 { return ConvertFloat[int16](f(float64(x))) }),
		Unary(func(x int32) int32 { return ConvertFloat[int32](f(float64(x))) }),
		Unary(func(x int64) int64 { return ConvertFloat[int64](f(float64(x))) }),
	}, Unary(func(x float32) float32 { return float32(f(float64(x))) }), Unary(f))
}

// ConvertFloat converts x to the integer type I toward zero, saturating
// out-of-range values and turning NaN into 0: Go leaves the conversion of
// an out-of-range float undefined, C too; onnxruntime's x86 build gives the
// type's minimum, which a saturation states more usefully.
func ConvertFloat[I Integer](x float64) I {
	x = math.Trunc(x)
	lo, hi := integerRange[I]()
	switch {
	case x != x:
		return 0
	case x <= lo:
		return I(lo)
	case x >= hi:
		return MaxOf[I]()
	}
	return I(x)
}

// integerRange returns the least value of I and 2^bits (signed: 2^(bits-1)),
// the first float above its range.
func integerRange[I Integer]() (lo, hi float64) {
	var zero I
	size := float64(unsafe.Sizeof(zero) * 8)
	if ^zero < 0 {
		return -math.Exp2(size - 1), math.Exp2(size - 1)
	}
	return 0, math.Exp2(size)
}

// MaxOf returns the greatest value of I.
func MaxOf[I Integer]() I {
	var zero I
	if ^zero < 0 {
		return ^I(0) ^ (I(1) << (unsafe.Sizeof(zero)*8 - 1))
	}
	return ^zero
}

// IntegerBinaries is the table of an operator over the integer types only
// (in IntOrder; nil where it has none).
func IntegerBinaries(ints [8]BinaryKernel) map[tensor.DataType]BinaryKernel {
	t := map[tensor.DataType]BinaryKernel{}
	for i, dt := range IntOrder {
		if ints[i] != nil {
			t[dt] = ints[i]
		}
	}
	return t
}

// IntegerUnaries is IntegerBinaries for a unary operator.
func IntegerUnaries(ints [8]UnaryKernel) map[tensor.DataType]UnaryKernel {
	t := map[tensor.DataType]UnaryKernel{}
	for i, dt := range IntOrder {
		if ints[i] != nil {
			t[dt] = ints[i]
		}
	}
	return t
}

// HalfToFloat32 widens one float16 (or bfloat16) to float32.
func HalfToFloat32(bf16 bool, v uint16) float32 {
	if bf16 {
		return tensor.BF16(v).Float32()
	}
	return float16.Frombits(v).Float32()
}

// HalfFromFloat32 rounds a float32 to float16 (or bfloat16), to nearest even.
func HalfFromFloat32(bf16 bool, f float32) uint16 {
	if bf16 {
		return uint16(tensor.BF16FromFloat32(f))
	}
	return float16.Fromfloat32(f).Bits()
}

// Float32FunctionStreamed is Float32Function whose float32 loop f32 has a
// streamed form f32s (the same bits, the stores bypassing the cache, as
// mathf's ...ToStreamed), which the calls that Config.StreamFrom sends to
// streaming stores run.
func Float32FunctionStreamed(f32, f32s UnarySpan[float32, float32], f64 func(float64) float64) map[tensor.DataType]UnaryKernel {
	t := Float32Function(f32, f64)
	t[tensor.Float] = StreamedUnary{Plain: f32, Streamed: f32s}
	return t
}

// StreamedUnary is a float32 unary loop and its streamed form: Run takes
// the streamed one where the call's traffic reaches Config.StreamFrom (a
// large call, bounded by memory, whose output would not stay in the cache
// anyway), the plain one elsewhere. The streamed form fences its stores
// before it returns.
type StreamedUnary struct {
	Plain, Streamed UnarySpan[float32, float32]
}

func (s StreamedUnary) Run(cfg Config, out, x *tensor.Tensor) error {
	if cfg.streams(out.ByteLen(), x.ByteLen()) {
		return s.Streamed.Run(cfg, out, x)
	}
	return s.Plain.Run(cfg, out, x)
}
