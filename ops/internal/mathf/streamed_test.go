package mathf

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestStreamedFormsKeepTheBits runs each streamed form against its plain
// form on slices of every length up to 200 at every float32 offset in a
// line (the streamed loop starts at the first 64-byte boundary), and on a
// long slice, with special values among random ones.
func TestStreamedFormsKeepTheBits(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	src := make([]float32, 1<<12)
	for i := range src {
		src[i] = float32(r.NormFloat64() * 6)
	}
	specials := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()),
		math.Float32frombits(0x7fa00001), math.Float32frombits(0xffc00123), 1e-40, -1e-40, 89, -104, 1e30, -1e30}
	for i, s := range specials {
		src[i*37%len(src)] = s
	}
	for _, c := range []struct {
		name            string
		plain, streamed func(o, a []float32)
	}{
		{"Exp", ExpsTo, ExpsToStreamed}, {"Sigmoid", SigmoidsTo, SigmoidsToStreamed},
		{"Tanh", TanhsTo, TanhsToStreamed}, {"Erf", ErfsTo, ErfsToStreamed},
		{"Softsign", SoftsignsTo, SoftsignsToStreamed},
	} {
		want, got := make([]float32, len(src)+16), make([]float32, len(src)+16)
		check := func(off, n int) {
			a := src[:n]
			c.plain(want[off:off+n], a)
			c.streamed(got[off:off+n], a)
			for i := range n {
				if math.Float32bits(got[off+i]) != math.Float32bits(want[off+i]) {
					t.Fatalf("%s: length %d offset %d: element %d of %v: %#x, want %#x", c.name, n, off, i, a[i], math.Float32bits(got[off+i]), math.Float32bits(want[off+i]))
				}
			}
		}
		for off := range 16 {
			for n := range 200 {
				check(off, n)
			}
			check(off, len(src))
		}
		// In place, as the operators may run.
		a := append([]float32(nil), src...)
		c.streamed(a, a)
		c.plain(want[:len(src)], src)
		for i := range a {
			if math.Float32bits(a[i]) != math.Float32bits(want[i]) {
				t.Fatalf("%s in place: element %d of %v: %#x, want %#x", c.name, i, src[i], math.Float32bits(a[i]), math.Float32bits(want[i]))
			}
		}
	}
}
