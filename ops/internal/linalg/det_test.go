package linalg

import (
	"math"
	"math/rand/v2"
	"testing"
)

// detMatrices draws 8×8 matrices with ties, zeros, infinities and NaNs, and
// singular ones, where the pivot choices and the early zero matter.
func detMatrices(r *rand.Rand, n int) []float32 {
	v := make([]float32, 64*n)
	for k := range n {
		a := v[64*k : 64*k+64]
		kind := r.IntN(6)
		for i := range a {
			switch kind {
			case 0, 1:
				a[i] = r.Float32()*2 - 1
			case 2: // small integers: ties in the pivot search, exact zeros
				a[i] = float32(r.IntN(5) - 2)
			case 3:
				a[i] = []float32{0, float32(math.Copysign(0, -1)), 1, -1, 2}[r.IntN(5)]
			default:
				a[i] = r.Float32()*4 - 2
			}
		}
		switch kind {
		case 4: // a special value or two
			for range 1 + r.IntN(2) {
				a[r.IntN(64)] = []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0, 1e-40}[r.IntN(5)]
			}
		case 5: // a repeated row or column: singular
			i, j := r.IntN(8), r.IntN(8)
			if r.IntN(2) == 0 {
				copy(a[8*i:8*i+8], a[8*j:8*j+8])
			} else {
				for row := range 8 {
					a[8*row+i] = a[8*row+j]
				}
			}
		}
	}
	return v
}

func TestDet8AgreesWithLU(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 8))
	const n = 20000
	src := detMatrices(r, n)
	src64 := make([]float64, len(src))
	for i, x := range src {
		src64[i] = float64(x)
	}
	want := make([]float64, n)
	a := make([]float64, 64)
	for k := range want {
		copy(a, src64[64*k:])
		want[k] = LUDeterminant(a, 8)
	}
	for _, f64 := range []bool{false, true} {
		got := make([]float64, n)
		var ok bool
		if f64 {
			ok = Det8(got, src64)
		} else {
			ok = Det8(got, src)
		}
		if !ok {
			t.Skip("no vector form on this machine")
		}
		for k := range got {
			// Any two NaNs are alike: the compiler may swap the operands
			// of a product (the race detector's build does), and x86
			// keeps the first one's sign and payload.
			if math.Float64bits(got[k]) != math.Float64bits(want[k]) && !(got[k] != got[k] && want[k] != want[k]) {
				t.Fatalf("float64 input %v, matrix %d %v: %v (%#x), want %v (%#x)", f64, k, src[64*k:64*k+64], got[k], math.Float64bits(got[k]), want[k], math.Float64bits(want[k]))
			}
		}
	}
}

// TestLUDeterminant checks the factorization on matrices whose
// determinants are known.
func TestLUDeterminant(t *testing.T) {
	for _, c := range []struct {
		a    []float64
		want float64
	}{
		{[]float64{2}, 2},
		{[]float64{1, 2, 3, 4}, -2},
		{[]float64{0, 1, 1, 0}, -1},
		{[]float64{1, 2, 2, 4}, 0},
		{[]float64{2, 0, 0, 0, 3, 0, 0, 0, 4}, 24},
	} {
		m := int(math.Sqrt(float64(len(c.a))))
		if got := LUDeterminant(append([]float64{}, c.a...), m); got != c.want {
			t.Errorf("%v: %v, want %v", c.a, got, c.want)
		}
	}
}

func BenchmarkDet8(b *testing.B) {
	src := detMatrices(rand.New(rand.NewPCG(1, 1)), 10000)
	dst := make([]float64, 10000)
	for b.Loop() {
		Det8(dst, src)
	}
}

func BenchmarkLUDeterminant8(b *testing.B) {
	src := detMatrices(rand.New(rand.NewPCG(1, 1)), 10000)
	a := make([]float64, 64)
	for b.Loop() {
		for k := range 10000 {
			for i, x := range src[64*k : 64*k+64] {
				a[i] = float64(x)
			}
			LUDeterminant(a, 8)
		}
	}
}
