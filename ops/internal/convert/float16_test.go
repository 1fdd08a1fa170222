package convert

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/x448/float16"
)

// float32 to float16 agrees with the generic rounding on every float16
// boundary and tie.
func TestCastFloat16Rounding(t *testing.T) {
	for h := range 0x7C00 {
		lo := float64(F16ToF32(uint16(h)))
		hi := float64(F16ToF32(uint16(h + 1)))
		for _, x := range []float64{lo, (lo + hi) / 2, math.Nextafter(lo, hi), -lo} {
			f := float32(x)
			if float64(f) != x {
				continue
			}
			if a, b := F32ToF16(math.Float32bits(f)), F64ToF16(x); a != b {
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
		if a, b := out[i], F64ToF16(float64(f)); a != b || F32ToF16(u) != b {
			t.Fatalf("%#08x (%v): slice path %#04x, one by one %#04x, general %#04x", u, f, a, F32ToF16(u), b)
		}
	}
	for _, u := range []uint32{0x7FC00000, 0xFFC00000, 0x7F812345, 0x7F800000, 0xFF800000, 0x477FF000, 0x477FEFFF, 0x33000000, 0x33000001, 0x387FE000} {
		f := math.Float32frombits(u)
		if a, b := F32ToF16(u), F64ToF16(float64(f)); a != b {
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
		if want := math.Float32bits(F16ToF32(h)); out[i] != want {
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
			if want := F32ToF16(u); out[i] != want || odd[i] != want {
				t.Fatalf("%#08x: slice path %#04x (unaligned %#04x), F32ToF16 %#04x", u, out[i], odd[i], want)
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

// The vector widening and its Go tail agree with F16ToF32 at every length
// and offset around the 16-element blocks, signalling NaNs included.
func TestCastFloat16WideningTails(t *testing.T) {
	in := make([]uint16, 64)
	for i := range in {
		in[i] = []uint16{0x7c01, 0xfd55, 0x3c00, 0x0001, 0x8000, 0x7e00, 0x7c00, 0xfbff, 0x0400, 0x03ff}[i%10] + uint16(i/10)
	}
	for off := range 3 {
		for n := 0; off+n <= len(in); n++ {
			out := make([]uint32, n)
			f16sToF32s(out, in[off:off+n])
			for i, h := range in[off : off+n] {
				if want := math.Float32bits(F16ToF32(h)); out[i] != want {
					t.Fatalf("off %d n %d: %#04x: %#08x, want %#08x", off, n, h, out[i], want)
				}
			}
		}
	}
}

// The slice conversions the float16 kernels load and store through give
// the bits of github.com/x448/float16, which the reference engine uses:
// every float16, and every 7th float32 bit pattern (-short: every 4099th),
// NaNs included.
func TestFloat16SlicesAreX448(t *testing.T) {
	halves := make([]uint16, 1<<16)
	for i := range halves {
		halves[i] = uint16(i)
	}
	wide := make([]float32, len(halves))
	Float16sToFloat32s(wide, halves)
	for i, h := range halves {
		if want := float16.Frombits(h).Float32(); math.Float32bits(wide[i]) != math.Float32bits(want) {
			t.Fatalf("%#04x: %#08x, x448 %#08x", h, math.Float32bits(wide[i]), math.Float32bits(want))
		}
	}
	for off := 1; off < 4; off++ { // src off its 8-byte alignment
		Float16sToFloat32s(wide[:len(halves)-off], halves[off:])
		for i, h := range halves[off:] {
			if want := float16.Frombits(h).Float32(); math.Float32bits(wide[i]) != math.Float32bits(want) {
				t.Fatalf("offset %d: %#04x: %#08x, x448 %#08x", off, h, math.Float32bits(wide[i]), math.Float32bits(want))
			}
		}
	}
	step := uint64(7)
	if testing.Short() {
		step = 4099
	}
	const chunk = 1 << 20
	in := make([]float32, 0, chunk)
	out := make([]uint16, chunk)
	check := func() {
		Float32sToFloat16s(out[:len(in)], in)
		for i, x := range in {
			if want := float16.Fromfloat32(x).Bits(); out[i] != want {
				t.Fatalf("%#08x: %#04x, x448 %#04x", math.Float32bits(x), out[i], want)
			}
		}
		in = in[:0]
	}
	for u := uint64(0); u < 1<<32; u += step {
		if in = append(in, math.Float32frombits(uint32(u))); len(in) == chunk {
			check()
		}
	}
	check()
}
