package elementwise

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The vector loops of vecspans.go against the plain Go loops they stand
// for: every form (both spans, left scalar, right scalar), lengths around
// the 32-element block (tails), and the values where a vector instruction
// could differ from Go (NaN, infinities, -0, the least and greatest
// integers, shift counts at and past the width).

func goSpans[T, O any](f func(a, b T) O) BinarySpans[T, T, O] { return Binary(f) }

func specialF32(r *rand.Rand) float32 {
	switch r.IntN(10) {
	case 0:
		return float32(math.NaN())
	case 1:
		return float32(math.Inf(1 - 2*r.IntN(2)))
	case 2:
		return float32(math.Copysign(0, float64(1-2*r.IntN(2))))
	case 3:
		return float32(r.IntN(3) - 1) // repeated values: ties
	}
	return float32(r.NormFloat64())
}

func specialF64(r *rand.Rand) float64 { return float64(specialF32(r)) }

func specialI32(r *rand.Rand) int32 {
	switch r.IntN(6) {
	case 0:
		return math.MinInt32
	case 1:
		return math.MaxInt32
	case 2:
		return int32(r.IntN(3) - 1)
	}
	return int32(r.Uint32())
}

func specialI64(r *rand.Rand) int64 {
	switch r.IntN(6) {
	case 0:
		return math.MinInt64
	case 1:
		return math.MaxInt64
	case 2:
		return int64(r.IntN(3) - 1)
	}
	return int64(r.Uint64())
}

var vecLengths = []int{0, 1, 31, 32, 33, 64, 95, 100, 257}

// checkSpans runs both loops in every form and compares with eq.
func checkSpans[T, O any](t *testing.T, name string, vec, ref BinarySpans[T, T, O], gen func(*rand.Rand) T, eq func(a, b O) bool) {
	t.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range vecLengths {
		for range 4 {
			a, b := make([]T, n), make([]T, n)
			for i := range a {
				a[i], b[i] = gen(r), gen(r)
			}
			s := gen(r)
			got, want := make([]O, n), make([]O, n)
			check := func(form string) {
				for i := range got {
					if !eq(got[i], want[i]) {
						t.Fatalf("%s %s n=%d: element %d: %v, want %v (a %v b %v s %v)", name, form, n, i, got[i], want[i], a[i], b[i], s)
					}
				}
			}
			vec.Both(got, a, b)
			ref.Both(want, a, b)
			check("both")
			vec.Left(got, s, b)
			ref.Left(want, s, b)
			check("left")
			vec.Right(got, a, s)
			ref.Right(want, a, s)
			check("right")
		}
	}
}

func same[O comparable](a, b O) bool { return a == b }

// sameFloat is bitwise equality, any NaN meeting any NaN.
func sameFloat[F float32 | float64](a, b F) bool {
	if a != a || b != b {
		return a != a && b != b
	}
	return math.Float64bits(float64(a)) == math.Float64bits(float64(b)) && math.Signbit(float64(a)) == math.Signbit(float64(b))
}

func cmpRefs[T int32 | int64 | float32 | float64]() map[CompareOp]BinarySpans[T, T, bool] {
	return map[CompareOp]BinarySpans[T, T, bool]{
		CmpEQ: goSpans(func(a, b T) bool { return a == b }),
		CmpLT: goSpans(func(a, b T) bool { return a < b }),
		CmpLE: goSpans(func(a, b T) bool { return a <= b }),
		CmpGT: goSpans(func(a, b T) bool { return a > b }),
		CmpGE: goSpans(func(a, b T) bool { return a >= b }),
	}
}

func TestVecCompare(t *testing.T) {
	if !haveVecLoops {
		t.Skip("no vector loops on this processor")
	}
	for op, ref := range cmpRefs[float32]() {
		checkSpans(t, "f32", Compare(op, ref), ref, specialF32, same[bool])
	}
	for op, ref := range cmpRefs[float64]() {
		checkSpans(t, "f64", Compare(op, ref), ref, specialF64, same[bool])
	}
	for op, ref := range cmpRefs[int32]() {
		checkSpans(t, "i32", Compare(op, ref), ref, specialI32, same[bool])
	}
	for op, ref := range cmpRefs[int64]() {
		checkSpans(t, "i64", Compare(op, ref), ref, specialI64, same[bool])
	}
	u32 := goSpans(func(a, b uint32) bool { return a == b })
	checkSpans(t, "u32", Compare(CmpEQ, u32), u32, func(r *rand.Rand) uint32 { return uint32(specialI32(r)) }, same[bool])
	u64 := goSpans(func(a, b uint64) bool { return a == b })
	checkSpans(t, "u64", Compare(CmpEQ, u64), u64, func(r *rand.Rand) uint64 { return uint64(specialI64(r)) }, same[bool])
}

func TestVecMinMax(t *testing.T) {
	if !haveVecLoops {
		t.Skip("no vector loops on this processor")
	}
	mn := goSpans(func(a, b float32) float32 { return min(a, b) })
	mx := goSpans(func(a, b float32) float32 { return max(a, b) })
	checkSpans(t, "min", MinMaxF32("Min", mn), mn, specialF32, sameFloat[float32])
	checkSpans(t, "max", MinMaxF32("Max", mx), mx, specialF32, sameFloat[float32])
}

func TestVecShift(t *testing.T) {
	if !haveVecLoops {
		t.Skip("no vector loops on this processor")
	}
	count32 := func(r *rand.Rand) uint32 {
		if r.IntN(2) == 0 {
			return uint32(r.IntN(40)) // counts at and past the width too
		}
		return r.Uint32()
	}
	count64 := func(r *rand.Rand) uint64 {
		if r.IntN(2) == 0 {
			return uint64(r.IntN(70))
		}
		return r.Uint64()
	}
	l32 := goSpans(func(a, b uint32) uint32 { return a << b })
	r32 := goSpans(func(a, b uint32) uint32 { return a >> b })
	l64 := goSpans(func(a, b uint64) uint64 { return a << b })
	r64 := goSpans(func(a, b uint64) uint64 { return a >> b })
	checkSpans(t, "shl32", Shift(true, l32), l32, count32, same[uint32])
	checkSpans(t, "shr32", Shift(false, r32), r32, count32, same[uint32])
	checkSpans(t, "shl64", Shift(true, l64), l64, count64, same[uint64])
	checkSpans(t, "shr64", Shift(false, r64), r64, count64, same[uint64])
}

func TestVecIsNaNIsInf(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range vecLengths {
		a := make([]float32, n)
		for i := range a {
			a[i] = specialF32(r)
		}
		got := make([]bool, n)
		IsNaNF32(got, a)
		for i, x := range a {
			if got[i] != (x != x) {
				t.Fatalf("IsNaN n=%d element %d (%v): %v", n, i, x, got[i])
			}
		}
		for _, pn := range [][2]bool{{true, true}, {true, false}, {false, true}, {false, false}} {
			IsInfF32(pn[0], pn[1])(got, a)
			for i, x := range a {
				want := (pn[0] && math.IsInf(float64(x), 1)) || (pn[1] && math.IsInf(float64(x), -1))
				if got[i] != want {
					t.Fatalf("IsInf%v n=%d element %d (%v): %v", pn, n, i, x, got[i])
				}
			}
		}
	}
}

// specialInt is a random integer of type T, its least and greatest values
// and the ones around 0 often.
func specialInt[T Integer](r *rand.Rand) T {
	var lo, hi T
	hi = ^lo
	if hi < lo { // signed: ^0 is -1
		hi = T(uint64(1)<<(8*sizeOf[T]()-1) - 1)
		lo = ^hi
	}
	switch r.IntN(6) {
	case 0:
		return lo
	case 1:
		return hi
	case 2:
		return T(r.IntN(3)) - 1
	}
	return T(r.Uint64())
}

func sizeOf[T Integer]() uint {
	var x T
	n := uint(0)
	for x = 1; x != 0; x <<= 1 {
		n++
	}
	return n / 8
}

func checkMinMaxInt[T Integer](t *testing.T, name string) {
	t.Helper()
	eq := func(a, b T) bool { return a == b }
	checkSpans(t, name+" Min", MinMaxInt("Min", goSpans(func(a, b T) T { return min(a, b) })), goSpans(func(a, b T) T { return min(a, b) }), specialInt[T], eq)
	checkSpans(t, name+" Max", MinMaxInt("Max", goSpans(func(a, b T) T { return max(a, b) })), goSpans(func(a, b T) T { return max(a, b) }), specialInt[T], eq)
}

func TestVecMinMaxInt(t *testing.T) {
	checkMinMaxInt[int8](t, "int8")
	checkMinMaxInt[uint8](t, "uint8")
	checkMinMaxInt[int16](t, "int16")
	checkMinMaxInt[uint16](t, "uint16")
	checkMinMaxInt[int32](t, "int32")
	checkMinMaxInt[uint32](t, "uint32")
	checkMinMaxInt[int64](t, "int64")
	checkMinMaxInt[uint64](t, "uint64")
}

func TestVecBoolLogic(t *testing.T) {
	gen := func(r *rand.Rand) bool { return r.IntN(2) == 1 }
	eq := func(a, b bool) bool { return a == b }
	checkSpans(t, "And", BoolAnd, goSpans(func(a, b bool) bool { return a && b }), gen, eq)
	checkSpans(t, "Or", BoolOr, goSpans(func(a, b bool) bool { return a || b }), gen, eq)
	checkSpans(t, "Xor", BoolXor, goSpans(func(a, b bool) bool { return a != b }), gen, eq)
	checkSpans(t, "And words", boolWords(logicAnd), goSpans(func(a, b bool) bool { return a && b }), gen, eq)
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range vecLengths {
		a, got := make([]bool, n), make([]bool, n)
		for i := range a {
			a[i] = gen(r)
		}
		BoolNot(got, a)
		for i := range a {
			if got[i] == a[i] {
				t.Fatalf("Not n=%d: element %d: %v of %v", n, i, got[i], a[i])
			}
		}
	}
}
