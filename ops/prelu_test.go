package ops

import (
	"math"
	"testing"
)

// PRelu's branch-free float loops (and the float32 slope broadcast through
// LeakyRelu's vector loop) give the bits of the plain branch on X's sign,
// on every class of value: zeros of both signs, infinities, NaNs (X or
// slope), subnormals, spans of every length around a vector's width.
func TestPReluFloatLoopsKeepTheBranchBits(t *testing.T) {
	special := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -2.75, math.Inf(1), math.Inf(-1), math.NaN(), -math.NaN(),
		1e-40, -1e-40, 3.4e38, -3.4e38, 1e-310, -1e-310}
	value := func(i, salt int) float64 {
		if (i*7+salt)%3 == 0 {
			return special[(i*5+salt)%len(special)]
		}
		return float64((i*7919+salt*104729)%201-100) / 7
	}
	for n := range 70 {
		x32, s32, o32, w32 := make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
		x64, s64, o64, w64 := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range n {
			x64[i], s64[i] = value(i, n), value(i, n+1)
			x32[i], s32[i] = float32(x64[i]), float32(s64[i])
		}
		f32, want32 := preluFloat32(), preluSpans[float32]()
		f64, want64 := preluFloat64(), preluSpans[float64]()
		same32 := func(what string) {
			for i := range o32 {
				if math.Float32bits(o32[i]) != math.Float32bits(w32[i]) {
					t.Fatalf("float32 %s, n %d, element %d: PRelu(%g, %g) = %g, the branch %g", what, n, i, x32[i], s32[i], o32[i], w32[i])
				}
			}
		}
		same64 := func(what string) {
			for i := range o64 {
				if math.Float64bits(o64[i]) != math.Float64bits(w64[i]) {
					t.Fatalf("float64 %s, n %d, element %d: PRelu(%g, %g) = %g, the branch %g", what, n, i, x64[i], s64[i], o64[i], w64[i])
				}
			}
		}
		f32.Both(o32, x32, s32)
		want32.Both(w32, x32, s32)
		same32("both")
		f64.Both(o64, x64, s64)
		want64.Both(w64, x64, s64)
		same64("both")
		for _, s := range special {
			f32.Right(o32, x32, float32(s))
			want32.Right(w32, x32, float32(s))
			same32("slope broadcast")
			f64.Right(o64, x64, s)
			want64.Right(w64, x64, s)
			same64("slope broadcast")
		}
	}
}
