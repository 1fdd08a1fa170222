package norm

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// lrnPow's square roots for beta 0.75 are within 3.5*2^-53 relative of
// the exact power (three rounded operations: 4.5*2^-53 of its rounding to
// float64, which the test compares with; math.Pow itself is off by
// up to about 10*2^-53 here), far below a float32 result's rounding, and
// keep math.Pow's special values.
func TestLRNPowBound(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	exact := func(d, beta float64) float64 {
		x := new(big.Float).SetPrec(200).SetFloat64(d)
		s := new(big.Float).SetPrec(200).Sqrt(x)
		switch beta {
		case 0.5:
			f, _ := s.Float64()
			return f
		case 1:
			return d
		}
		q := new(big.Float).SetPrec(200).Sqrt(s)
		f, _ := q.Mul(q, s).Float64()
		return f
	}
	for _, beta := range []float64{0.75, 0.5, 1} {
		for range 20000 {
			d := math.Ldexp(1+r.Float64(), r.IntN(200)-100)
			got, want := lrnPow(d, beta), exact(d, beta)
			if math.Abs(got-want) > 4.5*math.Abs(want)*0x1p-53 {
				t.Fatalf("lrnPow(%v, %v) = %v, exactly %v", d, beta, got, want)
			}
		}
		for _, d := range []float64{0, math.Copysign(0, -1), math.Inf(1), -1, math.NaN()} {
			got, want := lrnPow(d, beta), math.Pow(d, beta)
			if math.Float64bits(got) != math.Float64bits(want) && !(got != got && want != want) {
				t.Errorf("lrnPow(%v, %v) = %v, math.Pow %v", d, beta, got, want)
			}
		}
	}
}
