package reduce

import (
	"flag"
	"math"
	"math/rand/v2"
	"testing"
)

// TestExpShiftedRow checks the fast exponentials against math.Exp, bit for
// bit: a sweep of the float32s of [-104, 89], random ones, and the special
// values.
func TestExpShiftedRow(t *testing.T) {
	var src []float32
	for b := uint32(0); b < 0x80000000; b += 331 {
		for _, s := range []uint32{0, 0x80000000} {
			if f := math.Float32frombits(b | s); f >= -104 && f <= 89 {
				src = append(src, f)
			}
		}
	}
	rng := rand.New(rand.NewPCG(2, 3))
	for range 1 << 20 {
		src = append(src, float32(-rng.Float64()*30))
	}
	src = append(src, 0, float32(math.Copysign(0, -1)), float32(math.Inf(-1)), float32(math.Inf(1)), float32(math.NaN()),
		-87.3, -87.4, 88.7, 88.8, 1e-30, -1e-30)
	forEachExpKernel(t, func(t *testing.T) {
		for _, m := range []float32{0, 3.5, -2, float32(math.Inf(-1))} {
			dst := make([]float32, len(src))
			expShiftedRow(dst, src, m)
			for i, x := range src {
				want := float32(math.Exp(float64(x - m)))
				if math.Float32bits(dst[i]) != math.Float32bits(want) && !(dst[i] != dst[i] && want != want) {
					t.Fatalf("exp(%v - %v) = %v, math.Exp gives %v", x, m, dst[i], want)
				}
			}
		}
	})
	// expShiftedEach, with a different m for each element.
	ms := make([]float32, len(src))
	for i := range ms {
		ms[i] = float32(rng.NormFloat64() * 4)
	}
	each := make([]float32, len(src))
	expShiftedEach(each, src, ms)
	for i, x := range src {
		want := float32(math.Exp(float64(x - ms[i])))
		if math.Float32bits(each[i]) != math.Float32bits(want) && !(each[i] != each[i] && want != want) {
			t.Fatalf("exp(%v - %v) = %v, math.Exp gives %v", x, ms[i], each[i], want)
		}
	}
	// rowMax: the first NaN, the first of +0 and -0, the tail.
	for _, row := range [][]float32{
		{1, 2, 3, 4, 5, 6, 7, 8, 9, -1},
		{1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
		{0, float32(math.Copysign(0, -1)), -1, -2, -3, -4, -5, -6, -7},
		{float32(math.Copysign(0, -1)), 0, -1, -2, -3, -4, -5, -6, -7},
		{-1, -2, float32(math.NaN()), -4, -5, -6, -7, -8},
		{-1, -2, -3, -4, -5, -6, -7, -8, float32(math.NaN())},
		{float32(math.Inf(-1)), float32(math.Inf(-1)), float32(math.Inf(-1)), float32(math.Inf(-1)), float32(math.Inf(-1)), float32(math.Inf(-1)), float32(math.Inf(-1)), float32(math.Inf(-1))},
	} {
		got, want := rowMax(row), reduceRow(Op{Kind: Max}, row)
		if math.Float32bits(got) != math.Float32bits(want) && !(got != got && want != want) {
			t.Fatalf("rowMax(%v) = %v, want %v", row, got, want)
		}
	}
	y := make([]float32, 1001)
	want := make([]float32, len(y))
	for i := range y {
		y[i] = float32(rng.NormFloat64())
		want[i] = y[i] / 3.7
	}
	divideRow(y, 3.7)
	for i := range y {
		if y[i] != want[i] {
			t.Fatalf("divideRow: element %d is %v, want %v", i, y[i], want[i])
		}
	}
}

func BenchmarkExpShiftedRow(b *testing.B) {
	src := make([]float32, 4096)
	for i := range src {
		src[i] = -float32(i%1000) / 37
	}
	dst := make([]float32, len(src))
	b.SetBytes(int64(len(src)) * 4)
	b.Run("fast", func(b *testing.B) {
		for b.Loop() {
			expShiftedRow(dst, src, 0)
		}
	})
	b.Run("math.Exp", func(b *testing.B) {
		for b.Loop() {
			for i, v := range src {
				dst[i] = float32(math.Exp(float64(v)))
			}
		}
	})
}

var expAll = flag.Bool("exp.all", false, "check the fast exponentials on every float32 of [-87.3, 88.7] (a minute or more)")

// TestExpShiftedRowAll checks, with -exp.all, every float32 of the block
// kernels' range [-87.3, 88.7] against math.Exp, bit for bit: the margin
// of expDegree's bound, tested exhaustively.
func TestExpShiftedRowAll(t *testing.T) {
	if !*expAll {
		t.Skip("-exp.all not set")
	}
	forEachExpKernel(t, func(t *testing.T) {
		src, dst := make([]float32, 0, 1<<20), make([]float32, 1<<20)
		check := func() {
			expShiftedRow(dst, src, 0)
			for i, x := range src {
				if want := float32(math.Exp(float64(x))); dst[i] != want {
					t.Fatalf("exp(%v) = %v, math.Exp gives %v", x, dst[i], want)
				}
			}
			src = src[:0]
		}
		for _, sign := range []uint32{0, 0x80000000} {
			for b := uint32(0); b < 0x7f800000; b++ {
				x := math.Float32frombits(b | sign)
				if x < -87.3 || x > 88.7 {
					break
				}
				if src = append(src, x); len(src) == cap(src) {
					check()
				}
			}
		}
		check()
	})
}
