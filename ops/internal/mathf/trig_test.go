package mathf

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"
)

// trigCases are the functions of trig.go with their exact values (float64
// math), the range measured and the bound in ulps of the package comment.
var trigCases = []struct {
	name   string
	f      func(float32) float32
	exact  func(float64) float64
	lo, hi float32
	bound  float64
}{
	{"Sin", Sin, math.Sin, -math.MaxFloat32, math.MaxFloat32, 2},
	{"Cos", Cos, math.Cos, -math.MaxFloat32, math.MaxFloat32, 2},
	{"Tan", Tan, math.Tan, -math.MaxFloat32, math.MaxFloat32, 3},
	{"Asin", Asin, math.Asin, -1, 1, 2.5},
	{"Acos", Acos, math.Acos, -1, 1, 1.5},
	{"Atan", Atan, math.Atan, -math.MaxFloat32, math.MaxFloat32, 2.5},
	{"Sinh", Sinh, math.Sinh, -90, 90, 2},
	{"Cosh", Cosh, math.Cosh, -90, 90, 2},
	{"Asinh", Asinh, math.Asinh, -math.MaxFloat32, math.MaxFloat32, 2.5},
	{"Acosh", Acosh, math.Acosh, 1, math.MaxFloat32, 3},
	{"Atanh", Atanh, math.Atanh, -1, 1, 2},
}

// TestTrigAccuracy holds the bounds of the package comment on a dense
// sweep (every 997th float32 of the range, both signs; every 9973rd under
// -short; every one with MATHF_EXHAUSTIVE=1, an hour or more: run one
// function with -run 'TestTrigAccuracy/Sin$').
func TestTrigAccuracy(t *testing.T) {
	step := uint32(997)
	if testing.Short() {
		step = 9973
	}
	if os.Getenv("MATHF_EXHAUSTIVE") != "" {
		step = 1
	}
	for _, c := range trigCases {
		t.Run(c.name, func(t *testing.T) {
			worst, at := measureAccuracy(c.f, c.exact, c.lo, c.hi, step)
			t.Logf("%s: at most %.3f ulps (at %v) over [%v, %v]", c.name, worst, at, c.lo, c.hi)
			if worst > c.bound {
				t.Errorf("%s: %.3f ulps at %v, above the stated %.1f", c.name, worst, at, c.bound)
			}
		})
	}
}

// trigSlices are the slice forms of trig.go beside their scalar functions.
var trigSlices = []struct {
	name   string
	to     func(o, a []float32)
	scalar func(float32) float32
}{
	{"Sins", SinsTo, Sin}, {"Coss", CossTo, Cos}, {"Tans", TansTo, Tan},
	{"Asins", AsinsTo, Asin}, {"Acoss", AcossTo, Acos}, {"Atans", AtansTo, Atan},
	{"Sinhs", SinhsTo, Sinh}, {"Coshs", CoshsTo, Cosh}, {"Asinhs", AsinhsTo, Asinh},
	{"Acoshs", AcoshsTo, Acosh}, {"Atanhs", AtanhsTo, Atanh},
}

// The slice forms give the scalar functions' bits at every length around
// the vector loop's 8 and at every offset, in place too: on a sweep of
// every binade, the special values, the branch points and random values
// (some beyond trigMax, where Sin, Cos and Tan fall back to float64).
func TestTrigSlicesMatchScalars(t *testing.T) {
	xs := specials()
	for _, v := range []float32{trigMax, 0.5, 1, 4096, 4097, 0.41421357, 0.41421354, 2.4142137, 2.4142134, 89, 89.5, 90, 88.7, 1.5, 0.49999997, 0.50000006, 0.99999994, 1.0000001, 65537, 1e10} {
		xs = append(xs, v, -v, math.Nextafter32(v, 0), math.Nextafter32(v, 1e38))
	}
	sweep(math.MaxFloat32, 30011, func(x float32) { xs = append(xs, x) })
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		xs = append(xs, float32(r.NormFloat64()*3), float32(r.Float64()*2-1), float32(r.NormFloat64()*1e5), math.Float32frombits(r.Uint32()))
	}
	same := func(a, b float32) bool { return math.Float32bits(a) == math.Float32bits(b) || (a != a && b != b) }
	for _, c := range trigSlices {
		for _, n := range []int{len(xs), 1, 7, 8, 9, 17, 263} {
			for off := 0; off+n <= len(xs) && off < 9; off++ {
				a := xs[off : off+n]
				o := make([]float32, n)
				c.to(o, a)
				for i, x := range a {
					if want := c.scalar(x); !same(o[i], want) {
						t.Fatalf("%s at %v (%#x): %v, scalar %v", c.name, x, math.Float32bits(x), o[i], want)
					}
				}
			}
		}
		o := append([]float32(nil), xs...)
		c.to(o, o)
		for i, x := range xs {
			if want := c.scalar(x); !same(o[i], want) {
				t.Fatalf("%s in place at %v: %v, scalar %v", c.name, x, o[i], want)
			}
		}
	}
}

func BenchmarkTrig(b *testing.B) {
	a := make([]float32, 1<<14)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range a {
		a[i] = float32(r.Float64()*2 - 1)
	}
	o := make([]float32, len(a))
	for _, c := range trigSlices {
		in := a
		if c.name == "Acoshs" {
			in = make([]float32, len(a))
			for i, v := range a {
				in[i] = 1 + v*v
			}
		}
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(4 * len(a)))
			for b.Loop() {
				c.to(o, in)
			}
		})
	}
}
