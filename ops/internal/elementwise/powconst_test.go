package elementwise

import (
	"math"
	"testing"

	"github.com/onnxshape/onnxshape/ops/internal/mathf"
)

// TestPowConst32 holds PowConst32's loops to the bits of Pow's general
// loop, mathf.Pow(x, e), and those to math.Pow's rounded to float32 (any
// NaN for a NaN), over every 1021st float32 bit pattern (every 65521st
// under -short) and the edge values, both signs.
func TestPowConst32(t *testing.T) {
	var exps []float64
	for e := -maxPowConst; e <= maxPowConst; e++ {
		exps = append(exps, float64(e))
	}
	exps = append(exps, 0.5, -0.5)
	for _, e := range []float64{17, -17, 2.5, 1e300, math.Inf(1), math.NaN()} {
		if PowConst32(e) != nil {
			t.Errorf("PowConst32(%v) has a loop; want nil", e)
		}
	}
	edges := []float32{0, 1, 2, 0.5, 3, 10, 1e-20, 1e20, 1e38, 1e-38, 1e-45, 3.4028235e38, 1.1754944e-38,
		1.0000001, 0.99999994, float32(math.Inf(1)), float32(math.NaN()), math.Float32frombits(0x7fc00001),
		math.Float32frombits(0x7f800001), 1.5, 2.5e-8, 4.6e18, 2.1e12, 1.8e19, 5.4e-20, 1.1e-13}
	var xs []float32
	for _, v := range edges {
		xs = append(xs, v, -v)
	}
	step := uint64(1021)
	if testing.Short() {
		step = 65521
	}
	for b := uint64(0); b < 1<<32; b += step {
		xs = append(xs, math.Float32frombits(uint32(b)))
	}
	got := make([]float32, len(xs))
	for _, e := range exps {
		f := PowConst32(e)
		if f == nil {
			t.Fatalf("PowConst32(%v) is nil", e)
		}
		f(got, xs)
		bad := 0
		for i, x := range xs {
			want := mathf.Pow(x, e)
			if p := float32(math.Pow(float64(x), e)); math.Float32bits(p) != math.Float32bits(want) && (p == p || want == want) {
				t.Fatalf("mathf.Pow(%g, %v) = %g, math.Pow %g", x, e, want, p)
			}
			if math.Float32bits(got[i]) != math.Float32bits(want) {
				if bad++; bad <= 5 {
					t.Errorf("%g^%v (bits %#x): got %g (%#x), mathf.Pow %g (%#x)", x, e, math.Float32bits(x), got[i], math.Float32bits(got[i]), want, math.Float32bits(want))
				}
			}
		}
		if bad > 5 {
			t.Errorf("x^%v: %d more differ", e, bad-5)
		}
	}
}

func BenchmarkPowConst32(b *testing.B) {
	xs := make([]float32, 1<<14)
	for i := range xs {
		xs[i] = float32(i)/1000 - 8
	}
	o := make([]float32, len(xs))
	for _, c := range []struct {
		name string
		f    UnarySpan[float32, float32]
	}{
		{"square", PowConst32(2)},
		{"cube", PowConst32(3)},
		{"math.Pow", func(o, a []float32) {
			for i, x := range a {
				o[i] = float32(math.Pow(float64(x), 3))
			}
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(4 * len(xs)))
			for b.Loop() {
				c.f(o, xs)
			}
		})
	}
}
