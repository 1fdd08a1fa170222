package clamp

import (
	"math"
	"math/rand/v2"
	"testing"
)

func clampOne[T float32 | float64](x, lo, hi T) T {
	if x < lo {
		x = lo
	}
	if x > hi {
		x = hi
	}
	return x
}

// The vector loops give the plain loop's bits for every element: NaN kept,
// zeros keep their sign against zero bounds, infinities, bounds that are
// NaN or crossed, and every length around the vector block.
func TestClampIsThePlainLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 26))
	specials := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1, -1, 0.5, -0.5}
	bounds := [][2]float64{{-0.5, 0.5}, {0, 0}, {math.Copysign(0, -1), 0}, {0, math.Copysign(0, -1)}, {1, -1},
		{math.Inf(-1), math.Inf(1)}, {math.NaN(), 0.5}, {-0.5, math.NaN()}}
	for _, n := range []int{0, 1, 7, 14, 15, 16, 17, 31, 32, 33, 49, 100, 196, 1000} {
		for _, b := range bounds {
			s64 := make([]float64, n)
			for i := range s64 {
				s64[i] = r.Float64()*4 - 2
				if r.IntN(4) == 0 {
					s64[i] = specials[r.IntN(len(specials))]
				}
			}
			s32 := make([]float32, n)
			for i, x := range s64 {
				s32[i] = float32(x)
			}
			d64, d32 := make([]float64, n), make([]float32, n)
			Float64(d64, s64, b[0], b[1])
			Float32(d32, s32, float32(b[0]), float32(b[1]))
			// In place (a fused activation): the same bits.
			i64, i32 := append([]float64(nil), s64...), append([]float32(nil), s32...)
			Float64(i64, i64, b[0], b[1])
			Float32(i32, i32, float32(b[0]), float32(b[1]))
			for i := range n {
				if w := clampOne(s64[i], b[0], b[1]); math.Float64bits(d64[i]) != math.Float64bits(w) {
					t.Fatalf("float64 n %d bounds %v: %v gave %v, want %v", n, b, s64[i], d64[i], w)
				}
				if w := clampOne(s32[i], float32(b[0]), float32(b[1])); math.Float32bits(d32[i]) != math.Float32bits(w) {
					t.Fatalf("float32 n %d bounds %v: %v gave %v, want %v", n, b, s32[i], d32[i], w)
				}
				if math.Float64bits(i64[i]) != math.Float64bits(d64[i]) || math.Float32bits(i32[i]) != math.Float32bits(d32[i]) {
					t.Fatalf("n %d bounds %v: element %d in place differs", n, b, i)
				}
			}
		}
	}
}
