package mathf

import (
	"fmt"
	"math"
	"os"
	"testing"
)

// ulps returns |got - want| in units of the last place of the float32
// nearest want (the smallest subnormal's spacing at the bottom).
func ulps(got float32, want float64) float64 {
	w := float32(want)
	if w == 0 {
		w = math.SmallestNonzeroFloat32
	}
	a := math.Abs(float64(w))
	next := float64(math.Nextafter32(float32(a), float32(math.Inf(1))))
	return math.Abs(float64(got)-want) / (next - a)
}

// sweep calls f on every step-th float32 of magnitude up to hi, both
// signs: the same density of samples in every binade.
func sweep(hi float32, step uint32, f func(x float32)) {
	for b := uint32(0); b <= math.Float32bits(hi); b += step {
		x := math.Float32frombits(b)
		f(x)
		f(-x)
	}
}

func TestAccuracy(t *testing.T) {
	step := uint32(101)
	if testing.Short() {
		step = 10007
	}
	cases := []struct {
		name  string
		f     func(float32) float32
		exact func(float64) float64
		bound float64
	}{
		{"Exp", Exp, math.Exp, 1.5},
		{"Sigmoid", Sigmoid, func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }, 3},
		{"Tanh", Tanh, math.Tanh, 2},
		{"Erf", Erf, math.Erf, 1.5},
	}
	for _, c := range cases {
		worst, at := 0.0, float32(0)
		sweep(100, step, func(x float32) {
			want := c.exact(float64(x))
			if want > math.MaxFloat32 {
				return
			}
			if e := ulps(c.f(x), want); e > worst {
				worst, at = e, x
			}
		})
		t.Logf("%s: at most %.3f ulps (at %v)", c.name, worst, at)
		if worst > c.bound {
			t.Errorf("%s: %.3f ulps at %v, above the stated %.1f", c.name, worst, at, c.bound)
		}
	}
}

func TestSpecialValues(t *testing.T) {
	inf := float32(math.Inf(1))
	for _, c := range []struct {
		name string
		got  float32
		want float32
	}{
		{"Exp(-inf)", Exp(-inf), 0}, {"Exp(inf)", Exp(inf), inf}, {"Exp(0)", Exp(0), 1},
		{"Sigmoid(-inf)", Sigmoid(-inf), 0}, {"Sigmoid(inf)", Sigmoid(inf), 1}, {"Sigmoid(0)", Sigmoid(0), 0.5},
		{"Tanh(-inf)", Tanh(-inf), -1}, {"Tanh(inf)", Tanh(inf), 1}, {"Tanh(0)", Tanh(0), 0},
		{"Erf(-inf)", Erf(-inf), -1}, {"Erf(inf)", Erf(inf), 1}, {"Erf(0)", Erf(0), 0},
	} {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	nan := float32(math.NaN())
	for _, f := range []func(float32) float32{Exp, Sigmoid, Tanh, Erf} {
		if y := f(nan); y == y {
			t.Errorf("NaN gives %v", y)
		}
	}
}

func BenchmarkSigmoid(b *testing.B) {
	x := float32(0)
	for i := 0; i < b.N; i++ {
		x += Sigmoid(float32(i&1023) * 0.01)
	}
	_ = x
}

func BenchmarkTanh(b *testing.B) {
	x := float32(0)
	for i := 0; i < b.N; i++ {
		x += Tanh(float32(i&1023) * 0.01)
	}
	_ = x
}

// The slice forms give the scalar functions' bits, in place and not, at
// every length around the vector loop's 8 and at every offset.
func TestSlicesMatchScalars(t *testing.T) {
	var xs []float32
	sweep(110, 100003, func(x float32) { xs = append(xs, x) })
	inf := float32(math.Inf(1))
	xs = append(xs, inf, -inf, float32(math.NaN()), 0, float32(math.Copysign(0, -1)),
		tanhPoly, -tanhPoly, erfSplit, -erfSplit, erfMax, -erfMax, expMin, expMax,
		math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, math.MaxFloat32, -math.MaxFloat32)
	nan := math.Float32frombits(0x7fc00001)
	xs = append(xs, nan, -nan)
	for _, c := range []struct {
		name   string
		to     func(o, a []float32)
		scalar func(float32) float32
	}{
		{"Sigmoids", func(o, a []float32) { copy(o, a); Sigmoids(o) }, Sigmoid},
		{"Tanhs", func(o, a []float32) { copy(o, a); Tanhs(o) }, Tanh},
		{"SigmoidsTo", SigmoidsTo, Sigmoid}, {"TanhsTo", TanhsTo, Tanh}, {"ErfsTo", ErfsTo, Erf},
	} {
		for _, n := range []int{len(xs), 1, 7, 8, 9, 17} {
			for off := 0; off+n <= len(xs) && off < 9; off++ {
				a := xs[off : off+n]
				o := make([]float32, n)
				c.to(o, a)
				for i, x := range a {
					if want := c.scalar(x); math.Float32bits(o[i]) != math.Float32bits(want) && !(o[i] != o[i] && want != want) {
						t.Fatalf("%s at %v: %v, scalar %v", c.name, x, o[i], want)
					}
				}
			}
		}
	}
}

// Every float32 of magnitude below 100 (beyond, each function is at its
// limit): the bounds of the package comment. Minutes of work, so only on
// request: MATHF_EXHAUSTIVE=1 go test -run Exhaustive ./ops/internal/mathf/
func TestAccuracyExhaustive(t *testing.T) {
	if os.Getenv("MATHF_EXHAUSTIVE") == "" {
		t.Skip("MATHF_EXHAUSTIVE is not set")
	}
	for _, c := range []struct {
		name  string
		to    func(o, a []float32)
		exact func(float64) float64
		bound float64
	}{
		{"Sigmoid", SigmoidsTo, func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }, 3},
		{"Tanh", TanhsTo, math.Tanh, 2},
		{"Erf", ErfsTo, math.Erf, 1.5},
	} {
		worst, at := 0.0, float32(0)
		a, o := make([]float32, 1<<16), make([]float32, 1<<16)
		for _, sign := range []uint32{0, 1 << 31} {
			for b := uint32(0); b < math.Float32bits(100); b += 1 << 16 {
				for i := range a {
					a[i] = math.Float32frombits(sign | (b + uint32(i)))
				}
				c.to(o, a)
				for i, x := range a {
					if e := ulps(o[i], c.exact(float64(x))); e > worst {
						worst, at = e, x
					}
				}
			}
		}
		t.Logf("%s: at most %.3f ulps (at %v) over every float32 of magnitude below 100", c.name, worst, at)
		if worst > c.bound {
			t.Errorf("%s: %.3f ulps at %v, above the stated %.1f", c.name, worst, at, c.bound)
		}
	}
}

func BenchmarkSigmoids(b *testing.B) {
	v := make([]float32, 1024)
	for b.Loop() {
		for i := range v {
			v[i] = float32(i&1023)*0.01 - 5
		}
		Sigmoids(v)
	}
}

func BenchmarkSigmoidLoop(b *testing.B) {
	v := make([]float32, 1024)
	for b.Loop() {
		for i := range v {
			v[i] = float32(i&1023)*0.01 - 5
		}
		for i, x := range v {
			v[i] = Sigmoid(x)
		}
	}
}

func BenchmarkErfsTo(b *testing.B) {
	a, o := make([]float32, 4096), make([]float32, 4096)
	for i := range a {
		a[i] = float32(i)*0.002 - 4
	}
	b.SetBytes(4 * 4096)
	for b.Loop() {
		ErfsTo(o, a)
	}
}

func BenchmarkTanhsTo(b *testing.B) {
	a, o := make([]float32, 4096), make([]float32, 4096)
	for i := range a {
		a[i] = float32(i)*0.002 - 4
	}
	b.SetBytes(4 * 4096)
	for b.Loop() {
		TanhsTo(o, a)
	}
}

func BenchmarkSigmoidsTo(b *testing.B) {
	a, o := make([]float32, 4096), make([]float32, 4096)
	for i := range a {
		a[i] = float32(i)*0.002 - 4
	}
	b.SetBytes(4 * 4096)
	for b.Loop() {
		SigmoidsTo(o, a)
	}
}

// BenchmarkSliceForms times the slice forms of the functions the
// onnxruntime comparison measures, on a cached slice (4096 floats) and on
// the large case (25 MB, 6.5M floats), arguments spread over [-8, 8).
func BenchmarkSliceForms(b *testing.B) {
	for _, n := range []int{4096, 25 << 18} {
		a, o := make([]float32, n), make([]float32, n)
		for i := range a {
			a[i] = float32(i%4096)/256 - 8
		}
		for _, c := range []struct {
			name string
			f    func(o, a []float32)
		}{{"Exp", ExpsTo}, {"Sigmoid", SigmoidsTo}, {"Tanh", TanhsTo}, {"Erf", ErfsTo}} {
			b.Run(fmt.Sprintf("%s/%d", c.name, n), func(b *testing.B) {
				b.SetBytes(int64(4 * n))
				for b.Loop() {
					c.f(o, a)
				}
			})
		}
	}
}
