package window

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Pool2D's row passes (the unrolled 2- and 3-tap windows and the general
// loop) against Sum window by window, bit for bit, with zeros of both
// signs, infinities and NaNs among the taps (divisors of 1).
func TestPool2DSumsAsSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	specials := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 1e38, -1e38}
	for range 2000 {
		var axes []Axis
		ok := true
		for range 2 {
			ax := Axis{In: 1 + rng.IntN(40), Kernel: 1 + rng.IntN(4), Stride: 1 + rng.IntN(3), Dilation: 1}
			ax.PadBegin, ax.PadEnd = rng.IntN(ax.Kernel), rng.IntN(ax.Kernel)
			span := ax.In + ax.PadBegin + ax.PadEnd - ax.Kernel
			if span < 0 {
				ok = false
				break
			}
			ax.Out = span/ax.Stride + 1
			axes = append(axes, ax)
		}
		if !ok {
			continue
		}
		w := NewWindows(axes).As2D()
		in := make([]float32, w.InPlane)
		for i := range in {
			if rng.IntN(5) == 0 {
				in[i] = specials[rng.IntN(len(specials))]
			} else {
				in[i] = float32(rng.NormFloat64())
			}
		}
		ones := [][]float64{make([]float64, w.OutShape[0]), make([]float64, w.OutShape[1])}
		for _, d := range ones {
			for i := range d {
				d[i] = 1
			}
		}
		got := make([]float32, w.OutPlane)
		Pool2D(in, got, w, ones, Pool{}, nil, nil)
		outW := w.OutShape[1]
		for oh := range w.OutShape[0] {
			for ow := range outW {
				want := Sum(in, w, []int{oh, ow}, 0, w.First[0][oh]*w.InStride[0]+w.First[1][ow], Pool{})
				if g := got[oh*outW+ow]; math.Float32bits(g) != math.Float32bits(want) && !(g != g && want != want) {
					t.Fatalf("axes %+v: output (%d, %d) = %v, Sum gives %v", axes, oh, ow, g, want)
				}
			}
		}
	}
}
