package elementwise

import "unsafe"

// The vector loops of the comparisons (Equal, Less, LessOrEqual, Greater,
// GreaterOrEqual), Min and Max on float32 and the integers, BitShift on
// uint32 and uint64, IsNaN and IsInf on float32, And, Or, Xor and Not on
// bools (cmp_amd64.s, written by
// scripts/gen-cmp-asm.py): a comparison writes its bools in vector lanes
// (a compare, VMOVMSK and PDEP for eight bools at once) where the Go loop
// compared and stored one byte at a time. Each loop runs the bulk of a
// span, a multiple of 32 elements; the span's rest, and every span on a
// processor without AVX2 and BMI2, runs the Go loops it is given, which
// compute the same values: IEEE comparisons (false on NaN), Go's min and
// max (NaN wins, min(-0, +0) = -0, max(-0, +0) = +0; a NaN's payload may
// differ, as the engines' agreement allows) and Go's shifts (0 for a count
// of the width or more).

// CompareOp is a comparison operator.
type CompareOp int

// The comparisons: a == b, a < b, a <= b, a > b, a >= b.
const (
	CmpEQ CompareOp = iota
	CmpLT
	CmpLE
	CmpGT
	CmpGE
)

// vecLoops are the three vector loops of one operator and type: o[i] = a[i]
// op b[i], a[i] op *b and *a op b[i], over n elements (a multiple of 32).
type vecLoops struct {
	vv, vs, sv func(o, a, b unsafe.Pointer, n int)
}

// vecBlock is the number of elements each vector loop iteration takes.
const vecBlock = 32

// Compare returns the loops s of comparison op over T with the bulk of
// each span in the vector loops, for float32, float64, int32 and int64,
// and uint32 and uint64 for CmpEQ; s as it is for the other types or where
// the processor has no vector loops.
func Compare[T any](op CompareOp, s BinarySpans[T, T, bool]) BinarySpans[T, T, bool] {
	var key string
	switch any(*new(T)).(type) {
	case float32:
		key = "f32"
	case float64:
		key = "f64"
	case int32:
		key = "i32"
	case int64:
		key = "i64"
	case uint32:
		if op == CmpEQ {
			key = "i32"
		}
	case uint64:
		if op == CmpEQ {
			key = "i64"
		}
	}
	k, ok := cmpLoops[key][op]
	if !haveVecLoops || !ok {
		return s
	}
	return vecSpans(s, k)
}

// MinMaxF32 returns Min's (op "Min") or Max's ("Max") float32 loops s with
// the bulk of each span in the vector loops.
func MinMaxF32(op string, s BinarySpans[float32, float32, float32]) BinarySpans[float32, float32, float32] {
	k, ok := minMaxLoops[op]
	if !haveVecLoops || !ok {
		return s
	}
	return vecSpans(s, k)
}

// MinMaxInt returns Min's (op "Min") or Max's ("Max") loops s for an
// integer type with the bulk of each span in the vector loops.
func MinMaxInt[T Integer](op string, s BinarySpans[T, T, T]) BinarySpans[T, T, T] {
	var key string
	switch any(*new(T)).(type) {
	case int8:
		key = "i8"
	case uint8:
		key = "u8"
	case int16:
		key = "i16"
	case uint16:
		key = "u16"
	case int32:
		key = "i32"
	case uint32:
		key = "u32"
	case int64:
		key = "i64"
	case uint64:
		key = "u64"
	}
	k, ok := intMinMaxLoops[key+op]
	if !haveVecLoops || !ok {
		return s
	}
	return vecSpans(s, k)
}

// Shift returns BitShift's loops s (left or right) for uint32 or uint64
// with the bulk of each span in the vector loops.
func Shift[T uint32 | uint64](left bool, s BinarySpans[T, T, T]) BinarySpans[T, T, T] {
	key := "u32"
	if unsafe.Sizeof(T(0)) == 8 {
		key = "u64"
	}
	if left {
		key += "Shl"
	} else {
		key += "Shr"
	}
	k, ok := shiftLoops[key]
	if !haveVecLoops || !ok {
		return s
	}
	return vecSpans(s, k)
}

// vecSpans runs k over the longest prefix of each span that is a multiple
// of vecBlock elements and s over the rest.
func vecSpans[A, O any](s BinarySpans[A, A, O], k vecLoops) BinarySpans[A, A, O] {
	return BinarySpans[A, A, O]{
		Both: func(o []O, a, b []A) {
			m := len(o) &^ (vecBlock - 1)
			if m > 0 {
				_, _ = a[m-1], b[m-1]
				k.vv(unsafe.Pointer(&o[0]), unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), m)
			}
			s.Both(o[m:], a[m:len(o)], b[m:len(o)])
		},
		Left: func(o []O, a A, b []A) {
			m := len(o) &^ (vecBlock - 1)
			if m > 0 {
				_ = b[m-1]
				k.sv(unsafe.Pointer(&o[0]), unsafe.Pointer(&a), unsafe.Pointer(&b[0]), m)
			}
			s.Left(o[m:], a, b[m:len(o)])
		},
		Right: func(o []O, a []A, b A) {
			m := len(o) &^ (vecBlock - 1)
			if m > 0 {
				_ = a[m-1]
				k.vs(unsafe.Pointer(&o[0]), unsafe.Pointer(&a[0]), unsafe.Pointer(&b), m)
			}
			s.Right(o[m:], a[m:len(o)], b)
		},
	}
}

// isNaNVec and isInfVec run IsNaN's and IsInf's float32 vector loops over
// the longest prefix of a that is a multiple of vecBlock and return its
// length (0 without the loops). want holds the infinities to report, NaN
// for a sign not asked for.
func isNaNVec(o []bool, a []float32) int {
	m := len(o) &^ (vecBlock - 1)
	if !haveVecLoops || m == 0 {
		return 0
	}
	_ = a[m-1]
	isNaNF32Loop(unsafe.Pointer(&o[0]), unsafe.Pointer(&a[0]), unsafe.Pointer(&a[0]), m)
	return m
}

func isInfVec(o []bool, a []float32, want *[2]float32) int {
	m := len(o) &^ (vecBlock - 1)
	if !haveVecLoops || m == 0 {
		return 0
	}
	_ = a[m-1]
	isInfF32Loop(unsafe.Pointer(&o[0]), unsafe.Pointer(&a[0]), unsafe.Pointer(want), m)
	return m
}
