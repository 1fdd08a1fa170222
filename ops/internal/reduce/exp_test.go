package reduce

import (
	"flag"
	"math"
	"math/rand/v2"
	"testing"
)

var expAll = flag.Bool("exp.all", false, "check the vector exponentials on every float32 of [-104, 89], not every 101st")

// TestExpShiftedKernels checks each kernel of expShifted against exp32 one
// element at a time, bit for bit, over what softmax gives them (x - m with
// m the largest, so at most 0): the float32s of [-104, 0] (every 101st
// bit pattern, or all with -exp.all), then -inf, -0 and values past the
// clamp.
func TestExpShiftedKernels(t *testing.T) {
	step := uint32(101)
	if *expAll {
		step = 1
	}
	forEachKernel(t, func(t *testing.T) {
		src := make([]float32, 0, 1<<16)
		dst := make([]float32, 1<<16)
		check := func() {
			expShiftedRow(dst, src, 0)
			for i, x := range src {
				if want := exp32(x); !sameFloat32(dst[i], want) {
					t.Fatalf("exp32(%v) is %v, one at a time %v", x, dst[i], want)
				}
			}
			src = src[:0]
		}
		for b := uint32(0x80000000); b <= 0xC2D00000; b += step {
			if src = append(src, math.Float32frombits(b)); len(src) == cap(src) {
				check()
			}
		}
		src = append(src, float32(math.Inf(-1)), float32(math.Copysign(0, -1)), 0, -104.1, -103.97, -87.3, -1e30, -1e-45, -math.MaxFloat32)
		check()
	})
}

// TestExpShiftedSums checks the vector kernels' exponentials and sums,
// with one m (the largest) or one per element (at least its element),
// against expShiftedGo: every length to 70 and longer rows (tails of every
// size), random values with the special ones among them (a NaN or +inf
// makes an m that the kernels leave to exp32).
func TestExpShiftedSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 11))
	inf := float32(math.Inf(1))
	specials := []float32{float32(math.NaN()), inf, -inf, float32(math.Copysign(0, -1)), 0, 88, -120}
	lengths := []int{112, 255, 1000}
	for n := range 71 {
		lengths = append(lengths, n)
	}
	forEachKernel(t, func(t *testing.T) {
		for _, n := range lengths {
			for trial := range 3 {
				src, m := make([]float32, n), make([]float32, max(n, lanes))
				for i := range src {
					src[i] = float32(rng.NormFloat64() * 30)
					m[i] = float32(rng.NormFloat64() * 30)
					if trial > 0 && rng.IntN(10) == 0 {
						src[i] = specials[rng.IntN(len(specials))]
					}
				}
				for _, perElement := range []bool{false, true} {
					mm := make([]float32, len(m))
					for i, v := range src {
						mm[i] = v + float32(math.Abs(float64(m[i])))
					}
					if !perElement {
						mm = make([]float32, lanes)
						top := float32(math.Inf(-1))
						if n > 0 {
							top = reduceRow(Op{Kind: Max}, src)
						}
						for i := range mm {
							mm[i] = top
						}
					}
					got, want := make([]float32, n), make([]float32, n)
					gs := expShifted(got, src, mm, perElement)
					ws := expShiftedGo(want, src, mm, perElement)
					for i := range want {
						if !sameFloat32(got[i], want[i]) {
							t.Fatalf("length %d, trial %d, m per element %v: element %d is %v, one at a time %v", n, trial, perElement, i, got[i], want[i])
						}
					}
					if !sameFloat32(gs, ws) {
						t.Fatalf("length %d, trial %d, m per element %v: the sum is %v, one at a time %v", n, trial, perElement, gs, ws)
					}
				}
			}
		}
	})
}

func BenchmarkExpShiftedRow(b *testing.B) {
	src := benchRows(1, 1<<14)
	dst := make([]float32, len(src))
	b.SetBytes(int64(len(src)) * 4)
	for b.Loop() {
		expShiftedRow(dst, src, 3)
	}
}
