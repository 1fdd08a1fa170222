package rnn

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestCellLoopsAgree: the vector loops of lstmState and mulTo give the
// bits of the plain loops (two products rounded, then their sum), at every
// length around the vectors' width.
func TestCellLoopsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	vals := func(n int) []float32 {
		v := make([]float32, n)
		for j := range v {
			v[j] = float32(r.NormFloat64() * math.Pow(2, float64(r.IntN(40)-20)))
		}
		return v
	}
	for n := range 41 {
		c, g, f, i := vals(n), vals(n), vals(n), vals(n)
		wantC := make([]float32, n)
		for j := range wantC {
			p, q := float32(f[j]*c[j]), float32(i[j]*g[j])
			wantC[j] = p + q
		}
		lstmState(c, g, f, i)
		wantH := make([]float32, n)
		for j := range wantH {
			wantH[j] = f[j] * i[j]
		}
		h := make([]float32, n)
		mulTo(h, f, i)
		for j := range n {
			if math.Float32bits(c[j]) != math.Float32bits(wantC[j]) || math.Float32bits(g[j]) != math.Float32bits(wantC[j]) {
				t.Fatalf("n %d: lstmState element %d: c %v g %v, want %v", n, j, c[j], g[j], wantC[j])
			}
			if math.Float32bits(h[j]) != math.Float32bits(wantH[j]) {
				t.Fatalf("n %d: mulTo element %d: %v, want %v", n, j, h[j], wantH[j])
			}
		}
	}
}
