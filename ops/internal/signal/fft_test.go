package signal

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestTransformMatchesDefinition compares radix-2 and Bluestein transforms,
// forward and inverse, with the O(n²) definition.
func TestTransformMatchesDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 3, 5, 7, 8, 12, 16, 17, 31, 64, 100, 127} {
		p := NewPlan(n)
		scratch := make([]float64, ScratchFloats(n))
		for _, inverse := range []bool{false, true} {
			re, im := make([]float64, n), make([]float64, n)
			for k := range re {
				re[k], im[k] = r.NormFloat64(), r.NormFloat64()
			}
			wantR, wantI := make([]float64, n), make([]float64, n)
			sign := -1.0
			if inverse {
				sign = 1
			}
			for j := range n {
				for k := range n {
					s, c := math.Sincos(sign * 2 * math.Pi * float64(j*k%n) / float64(n))
					wantR[j] += re[k]*c - im[k]*s
					wantI[j] += re[k]*s + im[k]*c
				}
			}
			p.Transform(re, im, inverse, scratch)
			for j := range n {
				if math.Abs(re[j]-wantR[j]) > 1e-11*float64(n) || math.Abs(im[j]-wantI[j]) > 1e-11*float64(n) {
					t.Fatalf("n=%d inverse=%v: X[%d] = %v%+vi, want %v%+vi", n, inverse, j, re[j], im[j], wantR[j], wantI[j])
				}
			}
		}
	}
}
