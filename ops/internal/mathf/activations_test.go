package mathf

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"
)

// activationCases are the slice forms of activations.go beside their
// scalar functions, with the parameters of the test.
var activationCases = []struct {
	name   string
	to     func(o, a []float32)
	scalar func(float32) float32
}{
	{"Exps", ExpsTo, Exp},
	{"Logs", LogsTo, Log},
	{"Softpluses", SoftplusesTo, Softplus},
	{"Mishes", MishesTo, Mish},
	{"Gelus", GelusTo, Gelu},
	{"GeluTanhs", GeluTanhsTo, GeluTanh},
	{"HardSwishes", HardSwishesTo, HardSwish},
	{"Softsigns", SoftsignsTo, Softsign},
	{"Swishes", func(o, a []float32) { SwishesTo(o, a, 1.5) }, func(x float32) float32 { return Swish(x, 1.5) }},
	{"Elus", func(o, a []float32) { ElusTo(o, a, 0.7) }, func(x float32) float32 { return Elu(x, 0.7) }},
	{"Selus", func(o, a []float32) { SelusTo(o, a, 1.6732632, 1.050701) }, func(x float32) float32 { return Selu(x, 1.6732632, 1.050701) }},
	{"Celus", func(o, a []float32) { CelusTo(o, a, 1.3) }, func(x float32) float32 { return Celu(x, 1.3) }},
	{"Celus-", func(o, a []float32) { CelusTo(o, a, -0.5) }, func(x float32) float32 { return Celu(x, -0.5) }},
	{"HardSigmoids", func(o, a []float32) { HardSigmoidsTo(o, a, 0.2, 0.5) }, func(x float32) float32 { return HardSigmoid(x, 0.2, 0.5) }},
	{"LeakyRelus", func(o, a []float32) { LeakyRelusTo(o, a, 0.01) }, func(x float32) float32 { return LeakyRelu(x, 0.01) }},
	{"LeakyRelus-", func(o, a []float32) { LeakyRelusTo(o, a, -2) }, func(x float32) float32 { return LeakyRelu(x, -2) }},
	{"ThresholdedRelus", func(o, a []float32) { ThresholdedRelusTo(o, a, 1) }, func(x float32) float32 { return ThresholdedRelu(x, 1) }},
	{"Shrinks", func(o, a []float32) { ShrinksTo(o, a, 0.5, 0.25) }, func(x float32) float32 { return Shrink(x, 0.5, 0.25) }},
}

// specials are the values every slice test includes.
func specials() []float32 {
	inf := float32(math.Inf(1))
	nan := math.Float32frombits(0x7fc00001)
	return []float32{inf, -inf, float32(math.NaN()), nan, -nan, 0, float32(math.Copysign(0, -1)),
		tanhPoly, -tanhPoly, erfSplit, -erfSplit, erfMax, -erfMax, expMin, expMax, 1, -1, 0.5, -0.5,
		sqrtHalf, minNormal, 0x1p-127, math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32,
		math.MaxFloat32, -math.MaxFloat32, 0.34657359, -0.34657359, 0.3465736, -0.3465736}
}

// The slice forms give the scalar functions' bits at every length around
// the vector loop's 8 and at every offset: on a sweep of every binade, the
// special values and random values near the branch points.
func TestActivationSlicesMatchScalars(t *testing.T) {
	xs := specials()
	sweep(200, 30011, func(x float32) { xs = append(xs, x) })
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		xs = append(xs, float32(r.NormFloat64()*3), float32(r.Float64()*0.8-0.4), math.Float32frombits(r.Uint32()))
	}
	for _, c := range activationCases {
		for _, n := range []int{len(xs), 1, 7, 8, 9, 17} {
			for off := 0; off+n <= len(xs) && off < 9; off++ {
				a := xs[off : off+n]
				o := make([]float32, n)
				c.to(o, a)
				for i, x := range a {
					if want := c.scalar(x); math.Float32bits(o[i]) != math.Float32bits(want) && !(o[i] != o[i] && want != want) {
						t.Fatalf("%s at %v (%#x): %v, scalar %v", c.name, x, math.Float32bits(x), o[i], want)
					}
				}
			}
		}
		// In place.
		o := append([]float32(nil), xs...)
		c.to(o, o)
		for i, x := range xs {
			if want := c.scalar(x); math.Float32bits(o[i]) != math.Float32bits(want) && !(o[i] != o[i] && want != want) {
				t.Fatalf("%s in place at %v: %v, scalar %v", c.name, x, o[i], want)
			}
		}
	}
}

// accuracyCases are the functions of activations.go with their exact
// values (float64 math), the inputs over which the bound is stated, and
// the bound in ulps the package comment gives.
var accuracyCases = []struct {
	name   string
	f      func(float32) float32
	exact  func(float64) float64
	lo, hi float32 // the range of x measured
	bound  float64
}{
	{"Log", Log, math.Log, 0, math.MaxFloat32, 1.5},
	{"Expm1", Expm1, math.Expm1, -104, 88, 4},
	{"Softplus", Softplus, func(x float64) float64 { return math.Max(x, 0) + math.Log1p(math.Exp(-math.Abs(x))) }, -103, 1e30, 3.5},
	{"Mish", Mish, func(x float64) float64 {
		return x * math.Tanh(math.Max(x, 0)+math.Log1p(math.Exp(-math.Abs(x))))
	}, -87, 1e30, 5},
	{"Swish", func(x float32) float32 { return Swish(x, 1) }, func(x float64) float64 { return x / (1 + math.Exp(-x)) }, -87, 1e30, 4},
	{"Elu", func(x float32) float32 { return Elu(x, 1) }, func(x float64) float64 { return math.Min(x, 0)*0 + map2(x) }, -1e30, 1e30, 3},
	{"Gelu", Gelu, func(x float64) float64 { return 0.5 * x * math.Erfc(-x/math.Sqrt2) }, -1, 1e30, 4},
	{"GeluTanh", GeluTanh, func(x float64) float64 {
		return 0.5 * x * (1 + math.Tanh(math.Sqrt(2/math.Pi)*(x+0.044715*x*x*x)))
	}, -1, 1e6, 5},
	{"Softsign", Softsign, func(x float64) float64 { return x / (1 + math.Abs(x)) }, -1e30, 1e30, 2},
	{"HardSwish", HardSwish, func(x float64) float64 { return x * math.Max(0, math.Min(1, x/6+0.5)) }, -1e30, 1e30, 3},
}

func map2(x float64) float64 {
	if x < 0 {
		return math.Expm1(x)
	}
	return x
}

// measureAccuracy returns the largest error in ulps of f over every
// step-th float32 of [lo, hi], and where.
func measureAccuracy(f func(float32) float32, exact func(float64) float64, lo, hi float32, step uint32) (worst float64, at float32) {
	check := func(x float32) {
		if x < lo || x > hi {
			return
		}
		want := exact(float64(x))
		if math.Abs(want) > math.MaxFloat32 || want != want {
			return
		}
		if e := ulps(f(x), want); e > worst {
			worst, at = e, x
		}
	}
	for b := uint32(0); b < 0x7f800000; b += step {
		x := math.Float32frombits(b)
		check(x)
		check(-x)
	}
	return worst, at
}

// TestActivationAccuracy holds the bounds of the package comment on a
// dense sweep (every 97th float32; every 9973rd under -short).
func TestActivationAccuracy(t *testing.T) {
	step := uint32(97)
	if testing.Short() {
		step = 9973
	}
	if os.Getenv("MATHF_EXHAUSTIVE") != "" {
		step = 1
	}
	for _, c := range accuracyCases {
		worst, at := measureAccuracy(c.f, c.exact, c.lo, c.hi, step)
		t.Logf("%s: at most %.3f ulps (at %v) over [%v, %v]", c.name, worst, at, c.lo, c.hi)
		if worst > c.bound {
			t.Errorf("%s: %.3f ulps at %v, above the stated %.1f", c.name, worst, at, c.bound)
		}
	}
}

func BenchmarkActivations(b *testing.B) {
	a := make([]float32, 1<<14)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range a {
		a[i] = float32(r.NormFloat64() * 3)
		if i%3 == 0 {
			a[i] = float32(r.Float64() * 10)
		}
	}
	o := make([]float32, len(a))
	for _, c := range activationCases {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(4 * len(a)))
			for b.Loop() {
				c.to(o, a)
			}
		})
	}
}
