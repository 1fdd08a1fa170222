package elementwise

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// edgeF32 are the float32 values every span test includes: zeros of both
// signs, infinities, NaNs (quiet, negative, signalling), the halves Round
// must take to even, denormals and the extremes.
func edgeF32() []float32 {
	v := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 0.5, -0.5, 1.5, 2.5, -2.5, 3.5,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()),
		math.Float32frombits(0xffc00001), math.Float32frombits(0x7f800001),
		math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, math.MaxFloat32, -math.MaxFloat32,
		8388607.5, 8388608.5, -8388609, 16777217, 1e-40, 4.9e-45}
	r := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		v = append(v, math.Float32frombits(r.Uint32()), float32(r.NormFloat64()*10))
	}
	return v
}

// sameF32 compares bit for bit, any NaN equal to any NaN.
func sameF32(a, b float32) bool {
	return math.Float32bits(a) == math.Float32bits(b) || a != a && b != b
}

func sameF64(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || a != a && b != b
}

// The typed float loops compute what the float64 element functions they
// replace computed, at every length (the tails).
func TestFloatSpansMatchElementFunctions(t *testing.T) {
	x := edgeF32()
	for _, tc := range []struct {
		name string
		f32  func(o, a []float32)
		f64  func(o, a []float64)
		ref  func(float64) float64
	}{
		{"Abs", AbsF32, AbsF64, math.Abs},
		{"Floor", FloorF32, FloorF64, math.Floor},
		{"Ceil", CeilF32, CeilF64, math.Ceil},
		{"Round", RoundF32, RoundF64, math.RoundToEven},
		{"Sqrt", SqrtF32, SqrtF64, math.Sqrt},
		{"Reciprocal", ReciprocalF32, ReciprocalF64, func(x float64) float64 { return 1 / x }},
		{"Neg", Negate[float32], Negate[float64], func(x float64) float64 { return -x }},
		{"Sign", Sign[float32], Sign[float64], func(x float64) float64 {
			switch {
			case x > 0:
				return 1
			case x < 0:
				return -1
			}
			return x
		}},
	} {
		for n := range 40 {
			o := make([]float32, n)
			tc.f32(o, x[:n])
			for i := range o {
				if want := float32(tc.ref(float64(x[i]))); !sameF32(o[i], want) {
					t.Errorf("%s(%g) float32: %g, want %g", tc.name, x[i], o[i], want)
				}
			}
		}
		o := make([]float32, len(x))
		tc.f32(o, x)
		x64 := make([]float64, len(x))
		for i, v := range x {
			x64[i] = float64(v) * (1 + 1e-9)
		}
		o64 := make([]float64, len(x))
		tc.f64(o64, x64)
		for i := range x {
			if want := float32(tc.ref(float64(x[i]))); !sameF32(o[i], want) {
				t.Errorf("%s(%g) float32: %g, want %g", tc.name, x[i], o[i], want)
			}
			if want := tc.ref(x64[i]); !sameF64(o64[i], want) {
				t.Errorf("%s(%g) float64: %g, want %g", tc.name, x64[i], o64[i], want)
			}
		}
	}
}

func TestFloatTestsMatchMath(t *testing.T) {
	x := edgeF32()
	o := make([]bool, len(x))
	IsNaNF32(o, x)
	for i, v := range x {
		if o[i] != math.IsNaN(float64(v)) {
			t.Errorf("IsNaN(%g) = %v", v, o[i])
		}
	}
	for _, pn := range [][2]bool{{true, true}, {true, false}, {false, true}, {false, false}} {
		IsInfF32(pn[0], pn[1])(o, x)
		x64 := make([]float64, len(x))
		for i, v := range x {
			x64[i] = float64(v)
		}
		o64 := make([]bool, len(x))
		IsInfF64(pn[0], pn[1])(o64, x64)
		for i, v := range x {
			want := pn[0] && math.IsInf(float64(v), 1) || pn[1] && math.IsInf(float64(v), -1)
			if o[i] != want || o64[i] != want {
				t.Errorf("IsInf%v(%g) = %v %v", pn, v, o[i], o64[i])
			}
		}
	}
	o64 := make([]bool, 3)
	IsNaNF64(o64, []float64{math.NaN(), math.Inf(1), -math.NaN()})
	if o64 != nil && (!o64[0] || o64[1] || !o64[2]) {
		t.Errorf("IsNaN float64: %v", o64)
	}
}

// The integer loops wrap the least value as the element functions did.
func TestIntegerSpans(t *testing.T) {
	x := []int8{-128, -127, -1, 0, 1, 127, 5, -5, 3}
	o := make([]int8, len(x))
	AbsSigned(o, x)
	if o[0] != -128 || o[1] != 127 || o[2] != 1 || o[7] != 5 {
		t.Errorf("Abs: %v", o)
	}
	Negate(o, x)
	if o[0] != -128 || o[1] != 127 || o[5] != -127 {
		t.Errorf("Neg: %v", o)
	}
	Sign(o, x)
	if o[0] != -1 || o[3] != 0 || o[5] != 1 {
		t.Errorf("Sign: %v", o)
	}
	Complement(o, x)
	if o[0] != 127 || o[3] != -1 {
		t.Errorf("BitwiseNot: %v", o)
	}
	u := []uint16{0, 1, 65535}
	ou := make([]uint16, 3)
	Sign(ou, u)
	if ou[0] != 0 || ou[1] != 1 || ou[2] != 1 {
		t.Errorf("Sign uint16: %v", ou)
	}
}

// The word-at-a-time bool loops agree with the byte logic at every length
// and alignment, with either input a broadcast scalar.
func TestBoolLogicWords(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	a, b := make([]bool, 67), make([]bool, 67)
	for i := range a {
		a[i], b[i] = r.IntN(2) == 1, r.IntN(2) == 1
	}
	for _, tc := range []struct {
		name string
		s    BinarySpans[bool, bool, bool]
		f    func(x, y bool) bool
	}{
		{"And", BoolAnd, func(x, y bool) bool { return x && y }},
		{"Or", BoolOr, func(x, y bool) bool { return x || y }},
		{"Xor", BoolXor, func(x, y bool) bool { return x != y }},
	} {
		for off := range 3 {
			for n := 0; n+off <= len(a); n += 5 {
				aa, bb := a[off:off+n], b[off:off+n]
				o := make([]bool, n+1)[1:]
				tc.s.Both(o, aa, bb)
				for i := range o {
					if o[i] != tc.f(aa[i], bb[i]) {
						t.Fatalf("%s Both n=%d off=%d at %d", tc.name, n, off, i)
					}
				}
				for _, s := range []bool{false, true} {
					tc.s.Left(o, s, bb)
					for i := range o {
						if o[i] != tc.f(s, bb[i]) {
							t.Fatalf("%s Left(%v) n=%d at %d", tc.name, s, n, i)
						}
					}
					tc.s.Right(o, aa, s)
					for i := range o {
						if o[i] != tc.f(aa[i], s) {
							t.Fatalf("%s Right(%v) n=%d at %d", tc.name, s, n, i)
						}
					}
				}
			}
		}
	}
	for n := range len(a) {
		o := make([]bool, n)
		BoolNot(o, a[:n])
		for i := range o {
			if o[i] == a[i] {
				t.Fatalf("Not n=%d at %d", n, i)
			}
		}
	}
}

// The branch-free Sign keeps zeros and NaNs bit for bit (payload and sign)
// and gives +-1 for every other value, denormals and infinities included.
func TestSignBits(t *testing.T) {
	x := edgeF32()
	o := make([]float32, len(x))
	SignF32(o, x)
	for i, v := range x {
		want := v
		switch {
		case v > 0:
			want = 1
		case v < 0:
			want = -1
		}
		if math.Float32bits(o[i]) != math.Float32bits(want) {
			t.Errorf("Sign(%#x) = %#x, want %#x", math.Float32bits(v), math.Float32bits(o[i]), math.Float32bits(want))
		}
	}
	x64 := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.Float64frombits(0x7ff0000000000001),
		math.Float64frombits(0xfff8000000000123), 5e-324, -5e-324, math.MaxFloat64, -3}
	o64 := make([]float64, len(x64))
	SignF64(o64, x64)
	for i, v := range x64 {
		want := v
		switch {
		case v > 0:
			want = 1
		case v < 0:
			want = -1
		}
		if math.Float64bits(o64[i]) != math.Float64bits(want) {
			t.Errorf("Sign(%#x) = %#x", math.Float64bits(v), math.Float64bits(o64[i]))
		}
	}
	i64 := []int64{math.MinInt64, -1, 0, 1, math.MaxInt64}
	oi := make([]int64, len(i64))
	Sign(oi, i64)
	if oi[0] != -1 || oi[1] != -1 || oi[2] != 0 || oi[3] != 1 || oi[4] != 1 {
		t.Errorf("Sign int64: %v", oi)
	}
}

// The AVX loops of Floor, Ceil, Round, Sqrt, Reciprocal and Abs give the
// bits of the float64 function rounded once, NaN payloads included (and
// Neg those of float32 negation), over random
// bit patterns (every class of float32) at lengths that reach the vector
// bulk and a tail.
func TestVectorUnariesBitExact(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	x := append(edgeF32(), make([]float32, 1<<16+13)...)
	for i := len(edgeF32()); i < len(x); i++ {
		x[i] = math.Float32frombits(r.Uint32())
		if i%3 == 0 {
			x[i] = float32(r.NormFloat64() * 1e3)
		}
	}
	for _, tc := range []struct {
		name string
		f32  func(o, a []float32)
		ref  func(float64) float64
	}{
		{"Floor", FloorF32, math.Floor},
		{"Ceil", CeilF32, math.Ceil},
		{"Round", RoundF32, math.RoundToEven},
		{"Sqrt", SqrtF32, math.Sqrt},
		{"Reciprocal", ReciprocalF32, func(x float64) float64 { return 1 / x }},
		{"Abs", AbsF32, math.Abs},
		{"Neg", NegF32, nil},
	} {
		ref := func(x float32) float32 { return float32(tc.ref(float64(x))) }
		if tc.ref == nil {
			ref = func(x float32) float32 { return -x }
		}
		for _, n := range []int{31, 32, 33, 100, len(x)} {
			o := make([]float32, n)
			tc.f32(o, x[:n])
			for i := range o {
				if got, want := math.Float32bits(o[i]), math.Float32bits(ref(x[i])); got != want {
					t.Fatalf("%s(%#08x) at %d of %d: %#08x, want %#08x", tc.name, math.Float32bits(x[i]), i, n, got, want)
				}
			}
		}
	}
}

// Complement is ^x at every integer width, every length across the vector
// block and the word, every start offset, and in place.
func TestComplementEveryWidth(t *testing.T) {
	checkComplement[int8](t)
	checkComplement[uint8](t)
	checkComplement[int16](t)
	checkComplement[uint16](t)
	checkComplement[int32](t)
	checkComplement[uint32](t)
	checkComplement[int64](t)
	checkComplement[uint64](t)
}

func checkComplement[T Integer](t *testing.T) {
	t.Helper()
	r := rand.New(rand.NewPCG(5, 6))
	x := make([]T, 140)
	for i := range x {
		x[i] = T(r.Uint64())
	}
	for off := 0; off < 3; off++ {
		for n := 0; off+n <= len(x); n++ {
			a := x[off : off+n]
			o := make([]T, n)
			Complement(o, a)
			for i := range o {
				if o[i] != ^a[i] {
					t.Fatalf("%T n=%d off=%d: element %d is %v, want %v", x[0], n, off, i, o[i], ^a[i])
				}
			}
			in := slices.Clone(a)
			Complement(in, in)
			if !slices.Equal(in, o) {
				t.Fatalf("%T n=%d off=%d: in place differs", x[0], n, off)
			}
		}
	}
}
