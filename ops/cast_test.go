package ops

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

func castBytes(t *testing.T, x *tensor.Tensor, to tensor.DataType, o CastOptions) []byte {
	t.Helper()
	y, err := Cast(x, to, o)
	if err != nil {
		t.Fatal(err)
	}
	return y.Bytes()
}

// The float 8 tables of the Cast specification, saturate on and off: 0, -0,
// NaN, Inf, -Inf, a value past the largest, its negative, and 1.
func TestCastFloat8Tables(t *testing.T) {
	inf := float32(math.Inf(1))
	x := tensor.MustFromSlice([]float32{0, float32(math.Copysign(0, -1)), float32(math.NaN()), inf, -inf, 1e6, -1e6, 1})
	for _, c := range []struct {
		to          tensor.DataType
		sat, nonSat []byte
	}{
		{tensor.Float8E4M3FN, []byte{0, 0x80, 0x7F, 0x7E, 0xFE, 0x7E, 0xFE, 0x38}, []byte{0, 0x80, 0x7F, 0x7F, 0xFF, 0x7F, 0xFF, 0x38}},
		{tensor.Float8E4M3FNUZ, []byte{0, 0, 0x80, 0x7F, 0xFF, 0x7F, 0xFF, 0x40}, []byte{0, 0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40}},
		{tensor.Float8E5M2, []byte{0, 0x80, 0x7E, 0x7B, 0xFB, 0x7B, 0xFB, 0x3C}, []byte{0, 0x80, 0x7E, 0x7C, 0xFC, 0x7C, 0xFC, 0x3C}},
		{tensor.Float8E5M2FNUZ, []byte{0, 0, 0x80, 0x7F, 0xFF, 0x7F, 0xFF, 0x40}, []byte{0, 0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40}},
	} {
		if got := castBytes(t, x, c.to, CastOptions{}); string(got) != string(c.sat) {
			t.Errorf("%v saturate: got % x, want % x", c.to, got, c.sat)
		}
		if got := castBytes(t, x, c.to, CastOptions{NoSaturate: true}); string(got) != string(c.nonSat) {
			t.Errorf("%v no saturate: got % x, want % x", c.to, got, c.nonSat)
		}
	}
}

// Integers keep their low bits ("200 (int16) -> -56 (int8)"); bool is
// nonzero; floats truncate toward zero.
func TestCastIntegers(t *testing.T) {
	y, _ := Cast(tensor.MustFromSlice([]int16{200, -1, 300}), tensor.Int8, CastOptions{})
	if v, _ := tensor.ToSlice[int8](y); v[0] != -56 || v[1] != -1 || v[2] != 44 {
		t.Errorf("int16 to int8: %v", v)
	}
	y, _ = Cast(tensor.MustFromSlice([]float32{2.7, -2.7, 0, float32(math.NaN())}), tensor.Bool, CastOptions{})
	if v, _ := tensor.ToSlice[bool](y); !v[0] || !v[1] || v[2] || !v[3] {
		t.Errorf("float to bool: %v", v)
	}
	y, _ = Cast(tensor.MustFromSlice([]float64{2.7, -2.7}), tensor.Int32, CastOptions{})
	if v, _ := tensor.ToSlice[int32](y); v[0] != 2 || v[1] != -2 {
		t.Errorf("double to int32: %v", v)
	}
	y, _ = Cast(tensor.MustFromSlice([]uint64{1<<64 - 1}), tensor.Float, CastOptions{})
	if v, _ := tensor.ToSlice[float32](y); v[0] != 0x1p64 {
		t.Errorf("uint64 max to float: %v", v)
	}
}

// Strings read as numbers, INF and NaN in any case; numbers write as numpy
// writes them.
func TestCastStrings(t *testing.T) {
	y, err := Cast(tensor.MustFromSlice([]string{"3.14", "1e-5", "1E8", "+INF", "-inf", "nan", "100.5"}), tensor.Float, CastOptions{})
	if err != nil {
		t.Fatal(err)
	}
	v, _ := tensor.ToSlice[float32](y)
	if v[0] != 3.14 || v[1] != 1e-5 || v[2] != 1e8 || !math.IsInf(float64(v[3]), 1) || !math.IsInf(float64(v[4]), -1) || v[5] == v[5] || v[6] != 100.5 {
		t.Errorf("string to float: %v", v)
	}
	y, _ = Cast(tensor.MustFromSlice([]string{"100.5", "-7"}), tensor.Int64, CastOptions{})
	if n, _ := tensor.ToSlice[int64](y); n[0] != 100 || n[1] != -7 {
		t.Errorf("string to int64: %v", n)
	}
	_, err = Cast(tensor.MustFromSlice([]string{"Hello World!"}), tensor.Float, CastOptions{})
	var e *Error
	if !errors.As(err, &e) || e.Rule != "string" {
		t.Errorf("a word: got %v, want rule string", err)
	}
	y, _ = Cast(tensor.MustFromSlice([]float32{314.15926, 1, 1e-5, 1e20, float32(math.Inf(-1)), 0.1}), tensor.String, CastOptions{})
	want := []string{"314.15927", "1.0", "1e-05", "1e+20", "-inf", "0.1"}
	for i, s := range y.Strings() {
		if s != want[i] {
			t.Errorf("float to string %d: got %q, want %q", i, s, want[i])
		}
	}
	y, _ = Cast(tensor.MustFromSlice([]bool{true, false}), tensor.String, CastOptions{})
	if s := y.Strings(); s[0] != "True" || s[1] != "False" {
		t.Errorf("bool to string: %v", s)
	}
}

// float32 to float16 agrees with the generic rounding on every float16
// boundary and tie.
func TestCastFloat16Rounding(t *testing.T) {
	for h := range 0x7C00 {
		lo := float64(f16ToF32(uint16(h)))
		hi := float64(f16ToF32(uint16(h + 1)))
		for _, x := range []float64{lo, (lo + hi) / 2, math.Nextafter(lo, hi), -lo} {
			f := float32(x)
			if float64(f) != x {
				continue
			}
			if a, b := f32ToF16(math.Float32bits(f)), f64ToF16(x); a != b {
				t.Fatalf("%v: float32 path %#04x, float64 path %#04x", x, a, b)
			}
		}
	}
}

// The float32 -> float16 fast path agrees with the general rounding on
// random bit patterns of every class (normal, subnormal, NaN, overflow).
func TestCastFloat16FastPath(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	in := make([]uint32, 2_000_000)
	for i := range in {
		in[i] = r.Uint32()
	}
	out := make([]uint16, len(in))
	f32sToF16s(out, in)
	for i, u := range in {
		f := math.Float32frombits(u)
		if f != f {
			continue // NaN: the paths spell payloads alike; checked below
		}
		if a, b := out[i], f64ToF16(float64(f)); a != b || f32ToF16(u) != b {
			t.Fatalf("%#08x (%v): slice path %#04x, one by one %#04x, general %#04x", u, f, a, f32ToF16(u), b)
		}
	}
	for _, u := range []uint32{0x7FC00000, 0xFFC00000, 0x7F812345, 0x7F800000, 0xFF800000, 0x477FF000, 0x477FEFFF, 0x33000000, 0x33000001, 0x387FE000} {
		f := math.Float32frombits(u)
		if a, b := f32ToF16(u), f64ToF16(float64(f)); a != b {
			t.Errorf("%#08x: fast %#04x, general %#04x", u, a, b)
		}
	}
}

// Every float16 widens to the float32 of its value on the slice path.
func TestCastFloat16Widening(t *testing.T) {
	in := make([]uint16, 1<<16)
	for i := range in {
		in[i] = uint16(i)
	}
	out := make([]uint32, len(in))
	f16sToF32s(out, in)
	for i, h := range in {
		if want := math.Float32bits(f16ToF32(h)); out[i] != want {
			t.Fatalf("%#04x: %#08x, want %#08x", h, out[i], want)
		}
		if e := h & 0x7C00; e != 0 && e != 0x7C00 && float64(math.Float32frombits(out[i])) != float16Value(h) {
			t.Fatalf("%#04x: value %v", h, math.Float32frombits(out[i]))
		}
	}
}

// float16Value is a float16's value by the IEEE definition.
func float16Value(h uint16) float64 {
	e, m := int(h>>10)&0x1F, float64(h&0x3FF)
	v := math.Ldexp(1+m/1024, e-15)
	if e == 0 {
		v = math.Ldexp(m/1024, -14)
	}
	if h&0x8000 != 0 {
		v = -v
	}
	return v
}

// The slice path (F16C's VCVTPS2PH where the processor has it) gives
// f32ToF16's bits for every third float32 bit pattern (every sign,
// exponent and NaN class, a third of each binade's mantissas; all 2^32 take
// 17 s), NaNs included; -short: one in 1009.
func TestCastFloat16EveryFloat32(t *testing.T) {
	step := uint64(3)
	if testing.Short() {
		step = 1009
	}
	const chunk = 1 << 20
	in := make([]uint32, 0, chunk)
	out := make([]uint16, chunk)
	shifted := make([]uint16, chunk+7)
	check := func() {
		f32sToF16s(out[:len(in)], in)
		// Again into storage that starts off a 16-byte boundary: the
		// head before it goes one by one, the rest streams.
		odd := shifted[3 : 3+len(in)]
		f32sToF16s(odd, in)
		for i, u := range in {
			if want := f32ToF16(u); out[i] != want || odd[i] != want {
				t.Fatalf("%#08x: slice path %#04x (unaligned %#04x), f32ToF16 %#04x", u, out[i], odd[i], want)
			}
		}
		in = in[:0]
	}
	for u := uint64(0); u < 1<<32; u += step {
		if in = append(in, uint32(u)); len(in) == chunk {
			check()
		}
	}
	check()
}
