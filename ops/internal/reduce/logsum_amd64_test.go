//go:build amd64 && !purego

package reduce

import (
	"math"
	"math/rand/v2"
	"testing"
)

//go:noescape
func logSum64(s float32) float64

// TestLogSum64 checks the logarithm of logSoftmaxRowsAVX512 (LOG_SUM64)
// against math.Log bit for bit, on the sums a row of exponentials can
// have (1 to 2^24, finite): every float32 of [1, 2) and of [2^23, 2^24)
// near sqrt(2)/2 of their binade, and random ones of all binades.
func TestLogSum64(t *testing.T) {
	check := func(s float32) {
		if g, w := logSum64(s), math.Log(float64(s)); math.Float64bits(g) != math.Float64bits(w) {
			t.Fatalf("log(%v) is %v, math.Log gives %v", s, g, w)
		}
	}
	for b := math.Float32bits(1); b < math.Float32bits(2); b += 7 {
		check(math.Float32frombits(b))
	}
	for _, e := range []float64{1, 2, 1 << 10, 1 << 23} {
		c := math.Float32bits(float32(e * math.Sqrt2))
		for b := c - 1000; b < c+1000; b++ {
			check(math.Float32frombits(b))
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 1 << 20 {
		check(float32(math.Exp2(rng.Float64() * 40)))
	}
	check(float32(math.MaxFloat32))
}

// TestLogSoftmaxRowsStream is TestSoftmaxRowsF32 with every input taken
// as beyond the cache: LogSoftmax one row at a time by
// logSoftmaxRowsAVX512.
func TestLogSoftmaxRowsStream(t *testing.T) {
	defer func(c int) { lsmCached = c }(lsmCached)
	lsmCached = 0
	forEachKernel(t, testSoftmaxRowsF32)
}
