package elementwise

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Fmod32 is math.Mod rounded to float32 (exact, so bit for bit) on the
// edge values against each other, on random bit patterns and on quotients
// near integers and near the 2^29 limit of the fast path.
func TestFmod32MatchesMathMod(t *testing.T) {
	check := func(a, b float32) {
		t.Helper()
		got, want := Fmod32(a, b), float32(math.Mod(float64(a), float64(b)))
		if !sameF32(got, want) {
			t.Fatalf("fmod(%g [%#x], %g [%#x]) = %g [%#x], want %g [%#x]", a, math.Float32bits(a), b, math.Float32bits(b),
				got, math.Float32bits(got), want, math.Float32bits(want))
		}
	}
	x := edgeF32()
	for _, a := range x {
		for _, b := range x {
			check(a, b)
		}
	}
	r := rand.New(rand.NewPCG(9, 10))
	n := 300_000
	if testing.Short() {
		n = 30_000
	}
	for range n {
		check(math.Float32frombits(r.Uint32()), math.Float32frombits(r.Uint32()))
		b := float32(r.NormFloat64()) * float32(math.Pow(2, float64(r.IntN(40)-20)))
		n := float32(r.IntN(1 << 30))
		check(n*b, b)                                          // near-integer quotients
		check(math.Nextafter32(n*b, 0), b)                     // just below
		check(-math.Nextafter32(n*b, float32(math.Inf(1))), b) // just above, negative
		check(float32(r.NormFloat64()*100), float32(r.NormFloat64()))
	}
}
