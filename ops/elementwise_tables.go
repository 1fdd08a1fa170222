// The tables of the elementwise operators: the type lists of their
// schemas, the per-type kernel tables, and the names the operator files
// use for the broadcasting elementwise engine (ops/internal/elementwise),
// which runs their loops.

package ops

import (
	"math"
	"unsafe"

	"github.com/x448/float16"

	"github.com/onnxshape/onnxshape/ops/internal/elementwise"
	"github.com/onnxshape/onnxshape/tensor"
)

// The engine's loops and kernels, by the names the operator files use.
type (
	broadcastWalk            = elementwise.Walk
	binarySpans[A, B, O any] = elementwise.BinarySpans[A, B, O]
	binaryKernel             = elementwise.BinaryKernel
	unaryKernel              = elementwise.UnaryKernel
	unarySpan[A, O any]      = elementwise.UnarySpan[A, O]
)

// newBroadcastWalk plans the walk of an output (elementwise.NewWalk).
func newBroadcastWalk(out []int, ins ...[]int) *broadcastWalk {
	return elementwise.NewWalk(out, ins...)
}

// binaryFunc returns the three loops of the element function f (elementwise.Binary).
func binaryFunc[A, B, O any](f func(a A, b B) O) binarySpans[A, B, O] { return elementwise.Binary(f) }

// mapping returns the loop of the element function f (elementwise.Unary).
func mapping[A, O any](f func(A) O) unarySpan[A, O] { return elementwise.Unary(f) }

// halfUnary runs a float32 loop for float16 or bfloat16 input
// (elementwise.HalfUnary).
type halfUnary[O any] struct {
	bf16 bool
	f32  unarySpan[float32, O]
}

func (h halfUnary[O]) Run(cfg elementwise.Config, out, x *tensor.Tensor) error {
	return elementwise.HalfUnary[O]{BF16: h.bf16, F32: h.f32}.Run(cfg, out, x)
}

// elems views a tensor's storage as []E (elementwise.Elems).
func elems[E any](t *tensor.Tensor) []E { return elementwise.Elems[E](t) }

// elementwise is what the engine needs of the run o.
func (o *Options) elementwise() elementwise.Config {
	o = o.orDefault()
	return elementwise.Config{Ctx: o.env.Ctx, Threads: o.threads(), StreamFrom: o.streamFrom}
}

// typeSet is a set of element types, one bit per tensor.DataType.
type typeSet uint64

func typesOf(dts ...tensor.DataType) typeSet {
	var s typeSet
	for _, dt := range dts {
		s |= 1 << uint(dt)
	}
	return s
}

func (s typeSet) has(dt tensor.DataType) bool { return dt >= 0 && dt < 64 && s&(1<<uint(dt)) != 0 }

// The type lists the ONNX schemas of the elementwise operators use.
var (
	floatTypes    = typesOf(tensor.Float16, tensor.Float, tensor.Double)
	floatBFTypes  = floatTypes | typesOf(tensor.BFloat16)
	unsignedTypes = typesOf(tensor.Uint8, tensor.Uint16, tensor.Uint32, tensor.Uint64)
	signedTypes   = typesOf(tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64)
	intTypes      = unsignedTypes | signedTypes
	int3264Types  = typesOf(tensor.Int32, tensor.Int64, tensor.Uint32, tensor.Uint64)
	numberTypes   = intTypes | floatTypes
	numberBFTypes = numberTypes | typesOf(tensor.BFloat16)
	boolTypes     = typesOf(tensor.Bool)
	float8Types   = typesOf(tensor.Float8E4M3FN, tensor.Float8E4M3FNUZ, tensor.Float8E5M2, tensor.Float8E5M2FNUZ)
)

// versionTypes maps each since-version of an operator to the element types
// it allows for its input T.
type versionTypes map[int]typeSet

// check refuses a type version v does not allow.
func (vt versionTypes) check(op opRef, what string, dt tensor.DataType) error {
	if !vt[op.version].has(dt) {
		return op.errorf("type", "%s of type %v is not allowed in version %d", what, dt, op.version)
	}
	return nil
}

// Element type groups the engine's kernels are generic over.
type (
	integer interface {
		~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
	}
	signedInteger interface {
		~int8 | ~int16 | ~int32 | ~int64
	}
	floating     interface{ ~float32 | ~float64 }
	number       interface{ integer | floating }
	signedNumber interface{ signedInteger | floating }
)

// hasZero reports whether an integer tensor holds a zero (a divisor SONNX
// leaves undefined).
func hasZero(t *tensor.Tensor) bool {
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

// numberBinaries builds an operator's table over the integer types (ints
// in the order uint8, uint16, uint32, uint64, int8, int16, int32, int64;
// nil where the operator has none) and the float types, float16 and
// bfloat16 through the float32 loops.
func numberBinaries[O any](ints [8]binaryKernel, f32 binarySpans[float32, float32, O], f64 binaryKernel) map[tensor.DataType]binaryKernel {
	t := elementwise.HalfBinaries(f32)
	t[tensor.Float] = f32
	t[tensor.Double] = f64
	for i, dt := range intOrder {
		if ints[i] != nil {
			t[dt] = ints[i]
		}
	}
	return t
}

// intOrder is the order of the integer kernels numberBinaries and
// numberUnaries take.
var intOrder = [8]tensor.DataType{tensor.Uint8, tensor.Uint16, tensor.Uint32, tensor.Uint64, tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64}

// numberUnaries is numberBinaries for a unary operator.
func numberUnaries[O any](ints [8]unaryKernel, f32 unarySpan[float32, O], f64 unaryKernel) map[tensor.DataType]unaryKernel {
	t := elementwise.HalfUnaries(f32)
	t[tensor.Float] = f32
	t[tensor.Double] = f64
	for i, dt := range intOrder {
		if ints[i] != nil {
			t[dt] = ints[i]
		}
	}
	return t
}

// floatFunction is the table of a unary operator over the float types
// defined by its float64 function f: float32 is computed in float64 and
// rounded once, float16 and bfloat16 through float32.
func floatFunction(f func(float64) float64) map[tensor.DataType]unaryKernel {
	return numberUnaries([8]unaryKernel{}, mapping(func(x float32) float32 { return float32(f(float64(x))) }), mapping(f))
}

// numberFunction is floatFunction that also serves the integer types: the
// float64 result converted to the integer type as C converts (toward zero,
// saturated at the type's range, NaN as 0).
func numberFunction(f func(float64) float64) map[tensor.DataType]unaryKernel {
	return numberUnaries([8]unaryKernel{
		mapping(func(x uint8) uint8 { return convertFloat[uint8](f(float64(x))) }),
		mapping(func(x uint16) uint16 { return convertFloat[uint16](f(float64(x))) }),
		mapping(func(x uint32) uint32 { return convertFloat[uint32](f(float64(x))) }),
		mapping(func(x uint64) uint64 { return convertFloat[uint64](f(float64(x))) }),
		mapping(func(x int8) int8 { return convertFloat[int8](f(float64(x))) }),
		mapping(func(x int16) int16 { return convertFloat[int16](f(float64(x))) }),
		mapping(func(x int32) int32 { return convertFloat[int32](f(float64(x))) }),
		mapping(func(x int64) int64 { return convertFloat[int64](f(float64(x))) }),
	}, mapping(func(x float32) float32 { return float32(f(float64(x))) }), mapping(f))
}

// convertFloat converts x to the integer type I toward zero, saturating
// out-of-range values and turning NaN into 0: Go leaves the conversion of
// an out-of-range float undefined, C too; onnxruntime's x86 build gives the
// type's minimum, which a saturation states more usefully.
func convertFloat[I integer](x float64) I {
	x = math.Trunc(x)
	lo, hi := integerRange[I]()
	switch {
	case x != x:
		return 0
	case x <= lo:
		return I(lo)
	case x >= hi:
		return maxOf[I]()
	}
	return I(x)
}

// integerRange returns the least value of I and 2^bits (signed: 2^(bits-1)),
// the first float above its range.
func integerRange[I integer]() (lo, hi float64) {
	var zero I
	size := float64(unsafe.Sizeof(zero) * 8)
	if ^zero < 0 {
		return -math.Exp2(size - 1), math.Exp2(size - 1)
	}
	return 0, math.Exp2(size)
}

// maxOf returns the greatest value of I.
func maxOf[I integer]() I {
	var zero I
	if ^zero < 0 {
		return ^I(0) ^ (I(1) << (unsafe.Sizeof(zero)*8 - 1))
	}
	return ^zero
}

// arithmeticTypes are the types of Add, Sub, Mul and Div by version.
var arithmeticTypes = versionTypes{
	1: floatTypes, 6: floatTypes | int3264Types, 7: floatTypes | int3264Types,
	13: floatBFTypes | int3264Types, 14: numberBFTypes,
}

// halfToFloat32 widens one float16 (or bfloat16) to float32.
func halfToFloat32(bf16 bool, v uint16) float32 {
	if bf16 {
		return tensor.BF16(v).Float32()
	}
	return float16.Frombits(v).Float32()
}

// halfFromFloat32 rounds a float32 to float16 (or bfloat16), to nearest even.
func halfFromFloat32(bf16 bool, f float32) uint16 {
	if bf16 {
		return uint16(tensor.BF16FromFloat32(f))
	}
	return float16.Fromfloat32(f).Bits()
}

// integerBinaries is the table of an operator over the integer types only
// (in intOrder; nil where it has none).
func integerBinaries(ints [8]binaryKernel) map[tensor.DataType]binaryKernel {
	t := map[tensor.DataType]binaryKernel{}
	for i, dt := range intOrder {
		if ints[i] != nil {
			t[dt] = ints[i]
		}
	}
	return t
}

// integerUnaries is integerBinaries for a unary operator.
func integerUnaries(ints [8]unaryKernel) map[tensor.DataType]unaryKernel {
	t := map[tensor.DataType]unaryKernel{}
	for i, dt := range intOrder {
		if ints[i] != nil {
			t[dt] = ints[i]
		}
	}
	return t
}
