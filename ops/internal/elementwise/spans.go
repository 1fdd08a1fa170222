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
// innocuous). Bool loops go 32 elements at a time in the vector loops of
// cmp_amd64.s (vecspans.go), eight in Go words elsewhere: ONNX bools are
// stored as the bytes 0 and 1 (onnx.checkBools refuses anything else).

// boolBytes views a []bool as its bytes.
func boolBytes(b []bool) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(b))), len(b))
}

const ones = 0x0101010101010101

// The bool operators And, Or and Xor: each loop works a word (eight
// bools) at a time with the operator written in the loop, so that the
// compiler inlines it (a func value would cost a call per word).
const (
	logicAnd = iota
	logicOr
	logicXor
)

// logicWords sets o = a op b over n8 = len(o) rounded down to 8 bytes; a
// scalar operand is passed as its byte repeated (sa or sb, with a or b nil).
func logicWords(op int, o, a, b []byte, sa, sb uint64) {
	n := len(o) &^ 7
	switch {
	case a != nil && b != nil:
		a, b = a[:n], b[:n]
		switch op {
		case logicAnd:
			for i := 0; i < n; i += 8 {
				st(o[i:], ld(a[i:])&ld(b[i:]))
			}
		case logicOr:
			for i := 0; i < n; i += 8 {
				st(o[i:], ld(a[i:])|ld(b[i:]))
			}
		default:
			for i := 0; i < n; i += 8 {
				st(o[i:], ld(a[i:])^ld(b[i:]))
			}
		}
	default:
		x, s := a, sb // one span and one repeated scalar: the operators commute
		if x == nil {
			x, s = b, sa
		}
		x = x[:n]
		switch op {
		case logicAnd:
			for i := 0; i < n; i += 8 {
				st(o[i:], ld(x[i:])&s)
			}
		case logicOr:
			for i := 0; i < n; i += 8 {
				st(o[i:], ld(x[i:])|s)
			}
		default:
			for i := 0; i < n; i += 8 {
				st(o[i:], ld(x[i:])^s)
			}
		}
	}
}

// logicByte is the operator on one pair of 0/1 bytes, for the tails.
func logicByte(op int, x, y byte) byte {
	switch op {
	case logicAnd:
		return x & y
	case logicOr:
		return x | y
	}
	return x ^ y
}

// boolLogic returns the three loops of the bool operator op: the bulk of
// each span in the vector loops (32 bools an instruction) where the
// processor has them, the words below for the rest.
func boolLogic(op int) BinarySpans[bool, bool, bool] {
	s := boolWords(op)
	if haveVecLoops {
		s = vecSpans(s, boolLogicLoops[op])
	}
	if op == logicXor {
		return s
	}
	// Against a scalar (a broadcast span), And's false and Or's true
	// decide every element, and the other value leaves the span as it is:
	// a fill or a copy, the span not read in the first case (as
	// onnxruntime's And and Or do); bools being 0 or 1, the same bytes.
	decides := op == logicOr
	s.Left = func(o []bool, a bool, b []bool) { scalarLogic(o, a, b, decides) }
	s.Right = func(o, a []bool, b bool) { scalarLogic(o, b, a, decides) }
	return s
}

// scalarLogic sets o to And's or Or's x op y, x the scalar that decides
// every element when it is decides.
func scalarLogic(o []bool, x bool, y []bool, decides bool) {
	if x != decides {
		copy(o, y[:len(o)])
		return
	}
	if !x {
		clear(o)
		return
	}
	ob := boolBytes(o)
	if len(ob) == 0 {
		return
	}
	ob[0] = 1
	for k := 1; k < len(ob); k *= 2 {
		copy(ob[k:], ob[:k])
	}
}

// boolWords returns the Go loops of the bool operator op.
func boolWords(op int) BinarySpans[bool, bool, bool] {
	return BinarySpans[bool, bool, bool]{
		Both: func(o, a, b []bool) {
			ob, ab, bb := boolBytes(o), boolBytes(a)[:len(o)], boolBytes(b)[:len(o)]
			logicWords(op, ob, ab, bb, 0, 0)
			for i := len(ob) &^ 7; i < len(ob); i++ {
				ob[i] = logicByte(op, ab[i], bb[i])
			}
		},
		Left: func(o []bool, a bool, b []bool) {
			ob, bb, s := boolBytes(o), boolBytes(b)[:len(o)], b2u(a)
			logicWords(op, ob, nil, bb, ones*uint64(s), 0)
			for i := len(ob) &^ 7; i < len(ob); i++ {
				ob[i] = logicByte(op, s, bb[i])
			}
		},
		Right: func(o, a []bool, b bool) {
			ob, ab, s := boolBytes(o), boolBytes(a)[:len(o)], b2u(b)
			logicWords(op, ob, ab, nil, 0, ones*uint64(s))
			for i := len(ob) &^ 7; i < len(ob); i++ {
				ob[i] = logicByte(op, ab[i], s)
			}
		},
	}
}

// The loops of And, Or and Xor on bool.
var (
	BoolAnd = boolLogic(logicAnd)
	BoolOr  = boolLogic(logicOr)
	BoolXor = boolLogic(logicXor)
)

// BoolNot is Not's loop: Xor by true.
func BoolNot(o, a []bool) {
	BoolXor.Right(o, a, true)
}

// Complement is BitwiseNot's loop. The complement of an integer is the
// complement of each of its bytes, whatever its width and sign, so every
// type is one byte loop: Xor by 0xff, 32 bytes an instruction in the
// vector loop of the bools where the processor has it, then words of
// eight bytes, then bytes.
func Complement[T Integer](o, a []T) {
	a = a[:len(o)]
	if len(o) == 0 {
		return
	}
	size := int(unsafe.Sizeof(o[0]))
	ob := unsafe.Slice((*byte)(unsafe.Pointer(&o[0])), len(o)*size)
	ab := unsafe.Slice((*byte)(unsafe.Pointer(&a[0])), len(a)*size)
	m := 0
	if haveVecLoops {
		if m = len(ob) &^ (vecBlock - 1); m > 0 {
			ff := byte(0xff)
			boolLogicLoops[logicXor].vs(unsafe.Pointer(&ob[0]), unsafe.Pointer(&ab[0]), unsafe.Pointer(&ff), m)
		}
	}
	ob, ab = ob[m:], ab[m:]
	logicWords(logicXor, ob, ab, nil, 0, ^uint64(0))
	for i := len(ob) &^ 7; i < len(ob); i++ {
		ob[i] = ^ab[i]
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

// absF32 and AbsF64 are Abs's loops (through float64 as before, so that
// a signalling NaN comes out quieted as it did; AbsF32 runs the AVX loop).
func absF32(o, a []float32) {
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

// floorF32 ... RoundF64 are the loops of Floor, Ceil and Round (half to
// even); on amd64 FloorF32, CeilF32 and RoundF32 (arith_amd64.go) run the
// AVX loops and leave these the tail.
func floorF32(o, a []float32) {
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

func ceilF32(o, a []float32) {
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

func roundF32(o, a []float32) {
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

// sqrtF32 and SqrtF64 are Sqrt's loops (the float32 conversion of a
// float64 square root compiles to SQRTSS); SqrtF32 runs the AVX loop.
func sqrtF32(o, a []float32) {
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

// reciprocalF32 and ReciprocalF64 are Reciprocal's loops; ReciprocalF32
// runs Div's AVX loop.
func reciprocalF32(o, a []float32) {
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

// Sign is Sign's loop: 1, -1, or x itself (0, -0, NaN). The float types
// go through SignF32 and SignF64, which choose without a branch (the sign
// of data is unpredictable, and a mispredicted branch per element costs
// more than the loop); the integers compare into 0/1 values.
func Sign[T Number](o, a []T) {
	switch o := any(o).(type) {
	case []float32:
		SignF32(o, any(a).([]float32))
		return
	case []float64:
		SignF64(o, any(a).([]float64))
		return
	}
	a = a[:len(o)]
	for i := range o {
		x := a[i]
		var zero T
		o[i] = T(b2u(x > zero)) - T(b2u(x < zero))
	}
}

// b2u is 1 for true and 0 for false (a SETcc, no branch).
func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// SignF32 is Sign's float32 loop on the bits: a value whose magnitude is
// in (0, +Inf] becomes +-1 with its sign; zeros and NaNs stay as they are.
func SignF32(o, a []float32) {
	a = a[:len(o)]
	for i := range o {
		b := math.Float32bits(a[i])
		r := b&(1<<31) | 0x3f800000 // +-1 with x's sign
		if m := b &^ (1 << 31); m-1 < 0x7f800000 {
			b = r
		}
		o[i] = math.Float32frombits(b)
	}
}

// SignF64 is SignF32 for float64.
func SignF64(o, a []float64) {
	a = a[:len(o)]
	for i := range o {
		b := math.Float64bits(a[i])
		r := b&(1<<63) | 0x3ff0000000000000
		if m := b &^ (1 << 63); m-1 < 0x7ff0000000000000 {
			b = r
		}
		o[i] = math.Float64frombits(b)
	}
}

// IsNaNF32 and IsNaNF64 are IsNaN's loops.
func IsNaNF32(o []bool, a []float32) {
	a = a[:len(o)]
	for i := isNaNVec(o, a); i < len(o); i++ {
		o[i] = math.Float32bits(a[i])&^(1<<31) > 0x7f800000
	}
}

func IsNaNF64(o []bool, a []float64) {
	a = a[:len(o)]
	for i := range o {
		o[i] = math.Float64bits(a[i])&^(1<<63) > 0x7ff0000000000000
	}
}

// IsInfF32 and IsInfF64 return IsInf's loops for its two attributes: an
// element whose magnitude is infinite is reported if its sign's attribute
// is set (a bit of want picked by the sign bit), in integer arithmetic
// with no branch and no flag in the loop.
func IsInfF32(pos, neg bool) UnarySpan[float32, bool] {
	want := uint32(b2u(pos)) | uint32(b2u(neg))<<1 // bit s: report sign s
	// The vector loop's two infinities: NaN, which equals nothing, for a
	// sign not asked for.
	vec := [2]float32{float32(math.NaN()), float32(math.NaN())}
	if pos {
		vec[0] = float32(math.Inf(1))
	}
	if neg {
		vec[1] = float32(math.Inf(-1))
	}
	return func(o []bool, a []float32) {
		ob := boolBytes(o)
		a = a[:len(ob)]
		for i := isInfVec(o, a, &vec); i < len(ob); i++ {
			b := math.Float32bits(a[i])
			// (b&^sign)^inf is below 2^31 and 0 only for an infinity:
			// minus one, its top bit is set only then.
			inf := ((b &^ (1 << 31)) ^ 0x7f800000 - 1) >> 31
			ob[i] = uint8(inf & (want >> (b >> 31)))
		}
	}
}

func IsInfF64(pos, neg bool) UnarySpan[float64, bool] {
	want := uint64(b2u(pos)) | uint64(b2u(neg))<<1
	return func(o []bool, a []float64) {
		ob := boolBytes(o)
		a = a[:len(ob)]
		for i := range ob {
			b := math.Float64bits(a[i])
			inf := ((b &^ (1 << 63)) ^ 0x7ff0000000000000 - 1) >> 63
			ob[i] = uint8(inf & (want >> (b >> 63)))
		}
	}
}

func ld(b []byte) uint64    { return binary.LittleEndian.Uint64(b) }
func st(b []byte, v uint64) { binary.LittleEndian.PutUint64(b, v) }
