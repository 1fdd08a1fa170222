package quant

import (
	"math"
	"math/rand/v2"
	"testing"
)

// requantPlain is the requantization as the reference engine writes it:
// clip, then round half to even, NaN to 0.
func requantPlain(s int32, mult, zero float64, signed bool) byte {
	lo, hi := Range(signed)
	v := float64(float64(s)*mult) + zero
	v = math.RoundToEven(math.Max(lo, math.Min(hi, v)))
	if math.IsNaN(v) {
		v = 0
	}
	return byte(int32(v))
}

func randomSums(r *rand.Rand, n int) []int32 {
	acc := make([]int32, n)
	for i := range acc {
		switch r.IntN(4) {
		case 0:
			acc[i] = []int32{0, 1, -1, math.MaxInt32, math.MinInt32, 255, 256, -256, 510, -510}[r.IntN(10)]
		case 1:
			acc[i] = r.Int32() - math.MaxInt32/2
		default:
			acc[i] = int32(r.IntN(2001) - 1000)
		}
	}
	return acc
}

// TestRequantizeAgreesWithPlain checks Requantize and RequantizeCols (the
// vector prefix and the Go tail) on every length up to 70, both types,
// multipliers that make ties (0.5, 0.25) and saturation, non-finite
// multipliers, biases that wrap.
func TestRequantizeAgreesWithPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	mults := []float64{0.5, 0.25, 1, 0.003, 1e-9, -0.5, 7, float64(float32(0.1) * float32(0.2) / float32(0.3)), math.Inf(1), math.NaN(), 0, 3e38}
	for n := range 71 {
		acc := randomSums(r, n)
		for _, signed := range []bool{false, true} {
			for _, zero := range []float64{0, 1, -128, 127, 128, 255, -5} {
				for _, m := range mults {
					for _, bias := range []int32{0, 3, -70000, math.MaxInt32} {
						out := make([]byte, n)
						Requantize(out, acc, bias, m, zero, signed)
						for i := range out {
							if want := requantPlain(acc[i]+bias, m, zero, signed); out[i] != want {
								t.Fatalf("n %d signed %v zero %g mult %g bias %d: acc %d gives %d, want %d", n, signed, zero, m, bias, acc[i], out[i], want)
							}
						}
					}
				}
				ms := make([]float64, n)
				for i := range ms {
					ms[i] = mults[r.IntN(len(mults)-3)]
				}
				if n > 20 && r.IntN(2) == 0 {
					ms[r.IntN(n)] = math.NaN()
				}
				out := make([]byte, n)
				RequantizeCols(out, acc, ms, zero, signed)
				for i := range out {
					if want := requantPlain(acc[i], ms[i], zero, signed); out[i] != want {
						t.Fatalf("cols n %d signed %v zero %g: acc %d mult %g gives %d, want %d", n, signed, zero, acc[i], ms[i], out[i], want)
					}
				}
			}
		}
	}
}
