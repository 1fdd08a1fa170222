package elementwise

import (
	"encoding/binary"
	"math"
	"unsafe"
)

// Typed span loops for the simple elementwise operators (Abs, Neg, Floor,
// Ceil, Round, Sqrt, Reciprocal, Sign, IsNaN, IsInf, Not, BitwiseNot, And,
// Or, Xor): each a plain loop over a span that the compiler compiles
// without a call per element, where Unary and Binary call the operator's
// element function through a func value for every element. Each computes
// the same value as the element function it replaces, bit for bit: the
// float32 loops that used to go through float64 (Floor, Ceil, Round,
// Sqrt, Reciprocal) give the same float32 because floor, ceil and
// round-half-to-even of a float32 are float32 values, and a float64 sqrt
// or quotient of float32 operands rounded once to float32 is the correctly
// rounded float32 result (53 >= 2*24+2 bits: the double rounding is
// innocuous). Bool loops go eight elements at a time: ONNX bools are
// stored as the bytes 0 and 1 (onnx.checkBools refuses anything else).

// boolBytes views a []bool as its bytes.
func boolBytes(b []bool) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(b))), len(b))
}

// wordLoop sets o[i] = f(a[i], b[i]) over bytes, eight at a time, with the
// tail byte by byte (f works on bytes within words too).
func wordLoop(o, a, b []byte, f func(x, y uint64) uint64) {
	n := len(o)
	a, b = a[:n], b[:n]
	i := 0
	for ; i+8 <= n; i += 8 {
		binary.LittleEndian.PutUint64(o[i:], f(binary.LittleEndian.Uint64(a[i:]), binary.LittleEndian.Uint64(b[i:])))
	}
	for ; i < n; i++ {
		o[i] = byte(f(uint64(a[i]), uint64(b[i])))
	}
}

const ones = 0x0101010101010101

// boolLogic returns the three loops of a bool operator whose byte function
// is f (on bytes that are 0 or 1, f must give 0 or 1).
func boolLogic(f func(x, y uint64) uint64) BinarySpans[bool, bool, bool] {
	return BinarySpans[bool, bool, bool]{
		Both: func(o, a, b []bool) { wordLoop(boolBytes(o), boolBytes(a), boolBytes(b), f) },
		Left: func(o []bool, a bool, b []bool) {
			s := uint64(0)
			if a {
				s = ones
			}
			ob, bb := boolBytes(o), boolBytes(b)[:len(o)]
			i := 0
			for ; i+8 <= len(ob); i += 8 {
				binary.LittleEndian.PutUint64(ob[i:], f(s, binary.LittleEndian.Uint64(bb[i:])))
			}
			for ; i < len(ob); i++ {
				ob[i] = byte(f(s&1, uint64(bb[i])))
			}
		},
		Right: func(o, a []bool, b bool) {
			s := uint64(0)
			if b {
				s = ones
			}
			ob, ab := boolBytes(o), boolBytes(a)[:len(o)]
			i := 0
			for ; i+8 <= len(ob); i += 8 {
				binary.LittleEndian.PutUint64(ob[i:], f(binary.LittleEndian.Uint64(ab[i:]), s))
			}
			for ; i < len(ob); i++ {
				ob[i] = byte(f(uint64(ab[i]), s&1))
			}
		},
	}
}

// The loops of And, Or and Xor on bool.
var (
	BoolAnd = boolLogic(func(x, y uint64) uint64 { return x & y })
	BoolOr  = boolLogic(func(x, y uint64) uint64 { return x | y })
	BoolXor = boolLogic(func(x, y uint64) uint64 { return x ^ y })
)

// BoolNot is Not's loop.
func BoolNot(o, a []bool) {
	ob, ab := boolBytes(o), boolBytes(a)[:len(o)]
	i := 0
	for ; i+8 <= len(ob); i += 8 {
		binary.LittleEndian.PutUint64(ob[i:], binary.LittleEndian.Uint64(ab[i:])^ones)
	}
	for ; i < len(ob); i++ {
		ob[i] = ab[i] ^ 1
	}
}

// Complement is BitwiseNot's loop.
func Complement[T Integer](o, a []T) {
	a = a[:len(o)]
	for i := range o {
		o[i] = ^a[i]
	}
}

// Negate is Neg's loop (the least signed integer wraps to itself).
func Negate[T SignedNumber](o, a []T) {
	a = a[:len(o)]
	for i := range o {
		o[i] = -a[i]
	}
}

// AbsSigned is Abs's loop for the signed integers (the least value wraps
// to itself).
func AbsSigned[T SignedInteger](o, a []T) {
	a = a[:len(o)]
	for i := range o {
		x := a[i]
		if x < 0 {
			x = -x
		}
		o[i] = x
	}
}

// Same copies a to o: Abs of an unsigned integer.
func Same[T any](o, a []T) { copy(o, a[:len(o)]) }

// AbsF32 and AbsF64 are Abs's loops (through float64 as before, so that
// a signalling NaN comes out quieted as it did).
func AbsF32(o, a []float32) {
	a = a[:len(o)]
	for i := range o {
		o[i] = float32(math.Abs(float64(a[i])))
	}
}

func AbsF64(o, a []float64) {
	a = a[:len(o)]
	for i := range o {
		o[i] = math.Abs(a[i])
	}
}

// FloorF32 ... RoundF64 are the loops of Floor, Ceil and Round (half to
// even).
func FloorF32(o, a []float32) {
	a = a[:len(o)]
	for i := range o {
		o[i] = float32(math.Floor(float64(a[i])))
	}
}

func FloorF64(o, a []float64) {
	a = a[:len(o)]
	for i := range o {
		o[i] = math.Floor(a[i])
	}
}

func CeilF32(o, a []float32) {
	a = a[:len(o)]
	for i := range o {
		o[i] = float32(math.Ceil(float64(a[i])))
	}
}

func CeilF64(o, a []float64) {
	a = a[:len(o)]
	for i := range o {
		o[i] = math.Ceil(a[i])
	}
}

func RoundF32(o, a []float32) {
	a = a[:len(o)]
	for i := range o {
		o[i] = float32(math.RoundToEven(float64(a[i])))
	}
}

func RoundF64(o, a []float64) {
	a = a[:len(o)]
	for i := range o {
		o[i] = math.RoundToEven(a[i])
	}
}

// SqrtF32 and SqrtF64 are Sqrt's loops (the float32 conversion of a
// float64 square root compiles to SQRTSS).
func SqrtF32(o, a []float32) {
	a = a[:len(o)]
	for i := range o {
		o[i] = float32(math.Sqrt(float64(a[i])))
	}
}

func SqrtF64(o, a []float64) {
	a = a[:len(o)]
	for i := range o {
		o[i] = math.Sqrt(a[i])
	}
}

// ReciprocalF32 and ReciprocalF64 are Reciprocal's loops.
func ReciprocalF32(o, a []float32) {
	a = a[:len(o)]
	for i := range o {
		o[i] = 1 / a[i]
	}
}

func ReciprocalF64(o, a []float64) {
	a = a[:len(o)]
	for i := range o {
		o[i] = 1 / a[i]
	}
}

// Sign is Sign's loop: 1, -1, or x itself (0, -0, NaN).
func Sign[T Number](o, a []T) {
	a = a[:len(o)]
	for i := range o {
		x := a[i]
		switch {
		case x > 0:
			x = 1
		case x < 0:
			var one T = 1
			x = -one
		}
		o[i] = x
	}
}

// IsNaNF32 and IsNaNF64 are IsNaN's loops.
func IsNaNF32(o []bool, a []float32) {
	a = a[:len(o)]
	for i := range o {
		o[i] = math.Float32bits(a[i])&^(1<<31) > 0x7f800000
	}
}

func IsNaNF64(o []bool, a []float64) {
	a = a[:len(o)]
	for i := range o {
		o[i] = math.Float64bits(a[i])&^(1<<63) > 0x7ff0000000000000
	}
}

// IsInfF32 and IsInfF64 return IsInf's loops for its two attributes.
func IsInfF32(pos, neg bool) UnarySpan[float32, bool] {
	return func(o []bool, a []float32) {
		a = a[:len(o)]
		for i := range o {
			b := math.Float32bits(a[i])
			o[i] = pos && b == 0x7f800000 || neg && b == 0xff800000
		}
	}
}

func IsInfF64(pos, neg bool) UnarySpan[float64, bool] {
	return func(o []bool, a []float64) {
		a = a[:len(o)]
		for i := range o {
			b := math.Float64bits(a[i])
			o[i] = pos && b == 0x7ff0000000000000 || neg && b == 0xfff0000000000000
		}
	}
}
