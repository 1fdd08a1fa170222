package mathf

import (
	"math"
	"math/rand/v2"
	"testing"
)

// powExponents are the fixed exponents of TestPowAccuracy: fractions,
// integers past the multiplication loop's 16, large and tiny magnitudes.
var powExponents = []float64{
	0.1, -0.1, 0.25, 0.3, -0.3, 1.0 / 3, 0.75, 1.5, -1.5, 2.5, -2.5, 3.7, -7.25,
	17, -17, 18, 31, -31, 64, 100.5, -100.5, 1e-3, -1e-3, 1e-7, 1000.25, -1000.25,
	1e5, 3.0000001, 0.9999999, float64(float32(math.Pi)), float64(float32(-math.E)),
}

// powULPBound is the accuracy TestPowAccuracy enforces (Pow's comment).
const powULPBound = 0.51

// TestPowAccuracy measures Pow against math.Pow in float64 (within an ulp
// of float64, far below the float32 ulps counted here): bases over every
// 16411th float32 bit pattern of both signs (every 262147th under -short),
// subnormals, infinities and NaNs among them, by each exponent of
// powExponents and 64 random ones (uniform in [-40, 40], and 2^u for u
// uniform in [-20, 20]); results beyond float32's range are checked to be
// the infinity or zero they round to.
func TestPowAccuracy(t *testing.T) {
	step := uint32(16411)
	if testing.Short() {
		step = 262147
	}
	r := rand.New(rand.NewPCG(3, 4))
	ys := append([]float64(nil), powExponents...)
	for range 32 {
		ys = append(ys, r.Float64()*80-40, math.Exp2(r.Float64()*40-20))
	}
	worst, wx, wy := 0.0, float32(0), 0.0
	for _, y := range ys {
		for b := uint64(0); b <= 0xffffffff; b += uint64(step) {
			x := math.Float32frombits(uint32(b))
			got := Pow(x, y)
			want := math.Pow(float64(x), y)
			switch w := float32(want); {
			case want != want:
				if got == got {
					t.Fatalf("Pow(%g, %g) = %g, want NaN", x, y, got)
				}
				continue
			case math.IsInf(float64(w), 0) || got == 0 || math.IsInf(float64(got), 0):
				// At the ends of the range: the same infinity or zero unless
				// want is within the bound of the largest finite float32 or
				// of half the smallest subnormal.
				if got != w || math.Signbit(float64(got)) != math.Signbit(want) {
					edge := math.Abs(math.Abs(want)-math.MaxFloat32)/0x1p104 <= 1 || math.Abs(math.Abs(want)-0x1p-150)/0x1p-149 <= powULPBound
					if !edge {
						t.Fatalf("Pow(%g, %g) = %g, want %g", x, y, got, w)
					}
				}
				continue
			}
			if math.Signbit(float64(got)) != math.Signbit(want) {
				t.Fatalf("Pow(%g, %g) = %g, want %g", x, y, got, want)
			}
			if e := ulps(got, want); e > worst {
				worst, wx, wy = e, x, y
			}
		}
	}
	t.Logf("Pow: at most %.4f ulps (at x = %g, y = %g)", worst, wx, wy)
	if worst > powULPBound {
		t.Errorf("Pow(%g, %g): %.4f ulps, over the bound %g", wx, wy, worst, powULPBound)
	}
}

// TestPowSpecialValues holds Pow to math.Pow's bits (C99's table) on the
// special bases and exponents and on every integral exponent up to 16.
func TestPowSpecialValues(t *testing.T) {
	inf := math.Inf(1)
	xs := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 0.5, -0.5, 2, -2, 3, -3, 1e-45, -1e-45, 1e38, -1e38,
		float32(inf), float32(-inf), float32(math.NaN()), math.MaxFloat32, -math.MaxFloat32, 1.0000001, 0.99999994}
	ys := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 2, -2, 3, -3, 17, -17, 18, -18, 0.1, -0.1, 2.5, -2.5,
		1 << 53, -(1 << 53), 1<<53 + 2, 1e300, -1e300, inf, -inf, math.NaN(), 1e-300, -1e-300}
	for n := -16; n <= 16; n++ {
		ys = append(ys, float64(n))
	}
	for _, x := range xs {
		for _, y := range ys {
			got, want := Pow(x, y), float32(math.Pow(float64(x), y))
			if got != got && want != want {
				continue
			}
			if math.Float32bits(got) != math.Float32bits(want) {
				// A finite, non-special case may differ from math.Pow by
				// the rounding of its own algorithm.
				if y != math.Trunc(y) || math.Abs(y) > 16 {
					if e := ulps(got, math.Pow(float64(x), y)); e <= powULPBound && got != 0 && !math.IsInf(float64(got), 0) {
						continue
					}
				}
				t.Errorf("Pow(%g, %g) = %g (%#x), want %g (%#x)", x, y, got, math.Float32bits(got), want, math.Float32bits(want))
			}
		}
	}
}

// TestPowsMatchPow holds the slice forms (the vector loops on amd64) to
// Pow's bits: random bases of every kind (bit patterns of both signs,
// subnormals, zeros, infinities, NaN, ±1, values near 1) against random
// exponents (fractions, large and small integers, the special ones), in
// slices of lengths that leave tails, and with one operand a scalar.
func TestPowsMatchPow(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	inf := float32(math.Inf(1))
	edgeX := []float32{0, float32(math.Copysign(0, -1)), 1, -1, inf, -inf, float32(math.NaN()), 1e-45, -1e-45,
		1e-40, -3e-39, math.MaxFloat32, -math.MaxFloat32, 0.99999994, 1.0000001, 2, -2, 0.5, -0.5}
	edgeY := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 2, -2, 3, -3, 16, -16, 17, -17, 0.5, -0.5, 1.5, -1.5,
		inf, -inf, float32(math.NaN()), 1e-45, 1 << 24, 1<<24 + 2, -(1 << 25), 1e30, -1e30, 33, -33, 101, 1e-8}
	randX := func(special float64) float32 {
		switch u := r.Float64(); {
		case u < special:
			return edgeX[r.IntN(len(edgeX))]
		case u < 0.3:
			return math.Float32frombits(r.Uint32())
		case u < 0.4:
			return math.Float32frombits(r.Uint32N(1<<23)) * float32(1-2*r.IntN(2))
		default:
			return float32(r.Float64()*8 - 4)
		}
	}
	randY := func(special float64) float32 {
		switch u := r.Float64(); {
		case u < special:
			return edgeY[r.IntN(len(edgeY))]
		case u < 0.3:
			return float32(r.IntN(200) - 100)
		case u < 0.4:
			return math.Float32frombits(r.Uint32())
		default:
			return float32(r.Float64()*60 - 30)
		}
	}
	check := func(name string, o, x, y []float32, xs, ys bool) {
		t.Helper()
		for i := range o {
			a, b := x[0], y[0]
			if !xs {
				a = x[i]
			}
			if !ys {
				b = y[i]
			}
			if want := Pow(a, float64(b)); math.Float32bits(o[i]) != math.Float32bits(want) {
				t.Fatalf("%s: Pow(%g [%#x], %g) = %g (%#x), want %g (%#x)", name, a, math.Float32bits(a), b,
					o[i], math.Float32bits(o[i]), want, math.Float32bits(want))
			}
		}
	}
	for _, special := range []float64{0, 0.001, 0.05, 0.5} {
		for _, n := range []int{0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 1000, 4099} {
			x, y, o := make([]float32, n), make([]float32, n), make([]float32, n)
			for i := range x {
				x[i], y[i] = randX(special), randY(special)
			}
			Pows(o, x, y)
			check("Pows", o, x, y, false, false)
			for range 3 {
				b := []float32{randY(special)}
				PowsRight(o, x, b[0])
				check("PowsRight", o, x, b, false, true)
				a := []float32{randX(special)}
				PowsLeft(o, a[0], y)
				check("PowsLeft", o, a, y, true, false)
			}
		}
	}
}

func BenchmarkPow(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	x := make([]float32, 4096)
	for i := range x {
		x[i] = r.Float32() * 4
	}
	o := make([]float32, len(x))
	b.Run("Pow", func(b *testing.B) {
		for b.Loop() {
			for i, v := range x {
				o[i] = Pow(v, 2.7)
			}
		}
	})
	b.Run("Pows", func(b *testing.B) {
		y := make([]float32, len(x))
		for i := range y {
			y[i] = 2.7
		}
		for b.Loop() {
			Pows(o, x, y)
		}
	})
	b.Run("math.Pow", func(b *testing.B) {
		for b.Loop() {
			for i, v := range x {
				o[i] = float32(math.Pow(float64(v), 2.7))
			}
		}
	})
}
