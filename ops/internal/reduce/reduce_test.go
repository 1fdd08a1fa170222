package reduce

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestFourRowsAsOne checks that the four-row sums give the bits of one row
// at a time, and the layouts the bits of the general walk.
func TestFourRowsAsOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	x := make([]float32, 16*21)
	for i := range x {
		x[i] = float32(rng.NormFloat64() * 1e3)
	}
	for _, k := range []Kind{Sum, Mean, SumSquare, L2, L1, Max, Min, Prod, LogSum, LogSumExp} {
		for _, shape := range [][]int{{13, 7}, {7, 13}, {13, 1, 7}, {16, 21}, {9, 8}, {8, 2, 8}} {
			for mask := 1; mask < 1<<len(shape); mask++ {
				reduced := make([]bool, len(shape))
				for i := range reduced {
					reduced[i] = mask&(1<<i) != 0
				}
				l := NewLayout(shape, reduced)
				y := make([]float32, l.Outputs())
				if err := Run(Op{Kind: k}, l, x, y, Serial); err != nil {
					t.Fatal(err)
				}
				// The general walk over the same axes, with an axis of
				// length 1 forcing it.
				g := Layout{General: true, N: l.N, Outer: l.Outputs()}
				g.Reduced, g.Kept = axesOf(shape, reduced)
				want := make([]float32, len(y))
				if err := Run(Op{Kind: k}, g, x, want, Serial); err != nil {
					t.Fatal(err)
				}
				for i := range y {
					if y[i] != want[i] && !(y[i] != y[i] && want[i] != want[i]) {
						t.Fatalf("kind %d shape %v reduced %v: output %d is %v, the general walk gives %v", k, shape, reduced, i, y[i], want[i])
					}
				}
			}
		}
	}
}

// axesOf lists the reduced and kept axes of shape with their strides.
func axesOf(shape []int, reduced []bool) (red, kept []Axis) {
	stride := 1
	for i := len(shape) - 1; i >= 0; i-- {
		ax := Axis{shape[i], stride}
		stride *= shape[i]
		if reduced[i] {
			red = append([]Axis{ax}, red...)
		} else {
			kept = append([]Axis{ax}, kept...)
		}
	}
	return red, kept
}

func BenchmarkMeanLastAxis(b *testing.B) {
	x := make([]float32, 4096*112)
	y := make([]float32, 4096)
	l := Layout{Outer: 4096, N: 112, Inner: 1}
	b.SetBytes(int64(len(x)) * 4)
	for b.Loop() {
		_ = Run(Op{Kind: Mean}, l, x, y, Serial)
	}
}

// The 25 MB shapes of issue 16: [8, 64, 112, 112] float32 reduced or
// softmaxed over the last axis, on one core.
func BenchmarkMeanLastAxis25MB(b *testing.B) {
	x := benchRows(8*64*112, 112)
	y := make([]float32, 8*64*112)
	l := Layout{Outer: 8 * 64 * 112, N: 112, Inner: 1}
	b.SetBytes(int64(len(x)) * 4)
	for b.Loop() {
		_ = Run(Op{Kind: Mean}, l, x, y, Serial)
	}
}

func BenchmarkSoftmaxLastAxis25MB(b *testing.B) {
	x := benchRows(8*64*112, 112)
	y := make([]float32, len(x))
	l := Layout{Outer: 8 * 64 * 112, N: 112, Inner: 1}
	b.SetBytes(int64(len(x)) * 4)
	for b.Loop() {
		_ = RunSoftmax(Softmax, l, x, y, false, Serial)
	}
}

// benchRows is rows*n normally distributed float32s.
func benchRows(rows, n int) []float32 {
	rng := rand.New(rand.NewPCG(4, 5))
	x := make([]float32, rows*n)
	for i := range x {
		x[i] = float32(rng.NormFloat64())
	}
	return x
}

// TestSumRowsF32 checks the transposed row sums against Go's scalar loop,
// bit for bit: 8 and 16 rows of every length to 70 (tails, n < 8), random
// magnitudes that make the order matter, NaN, infinities and -0.
func TestSumRowsF32(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 7))
	specials := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.Copysign(0, -1)), 0, math.MaxFloat32, -math.MaxFloat32, 1e-45}
	for _, rows := range []int{8, 16} {
		for n := range 71 {
			for trial := range 4 {
				x := make([]float32, rows*n)
				for i := range x {
					x[i] = float32(rng.NormFloat64() * math.Pow(10, float64(rng.IntN(16)-8)))
					if trial >= 2 && rng.IntN(8) == 0 {
						x[i] = specials[rng.IntN(len(specials))]
					}
				}
				if trial == 1 {
					for i := range x {
						x[i] = float32(math.Copysign(0, -1)) // a sum of -0s stays -0
					}
				}
				sums := make([]float32, rows)
				sumRowsF32(x, n, sums)
				for r := range rows {
					var want float32
					for _, v := range x[r*n : (r+1)*n] {
						want += v
					}
					if math.Float32bits(sums[r]) != math.Float32bits(want) && !(sums[r] != sums[r] && want != want) {
						t.Fatalf("%d rows of %d, trial %d: row %d sums to %v, the scalar loop gives %v", rows, n, trial, r, sums[r], want)
					}
				}
			}
		}
	}
}
