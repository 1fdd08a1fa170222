package reduce

import (
	"math/rand/v2"
	"testing"
)

// TestLayoutsAsGeneral checks that every layout (rows of sixteen-lane
// float32 sums, column blocks) gives the bits of the general walk, which
// reduces each output's gathered elements one row at a time.
func TestLayoutsAsGeneral(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	x := make([]float32, 400)
	for i := range x {
		x[i] = float32(rng.NormFloat64() * 1e3)
	}
	for _, k := range []Kind{Sum, Mean, SumSquare, L2, L1, Max, Min, Prod, LogSum, LogSumExp, Lp} {
		for _, shape := range [][]int{{13, 7}, {7, 13}, {13, 1, 7}, {16, 21}, {9, 8}, {8, 2, 8}, {3, 37, 3}, {37, 9}} {
			for mask := 1; mask < 1<<len(shape); mask++ {
				reduced := make([]bool, len(shape))
				for i := range reduced {
					reduced[i] = mask&(1<<i) != 0
				}
				l := NewLayout(shape, reduced)
				y := make([]float32, l.Outputs())
				if err := Run(Op{Kind: k, P: 3}, l, x, y, Serial); err != nil {
					t.Fatal(err)
				}
				// The general walk over the same axes, with an axis of
				// length 1 forcing it.
				g := Layout{General: true, N: l.N, Outer: l.Outputs()}
				g.Reduced, g.Kept = axesOf(shape, reduced)
				want := make([]float32, len(y))
				if err := Run(Op{Kind: k, P: 3}, g, x, want, Serial); err != nil {
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

// The 25 MB shapes of the elementwise and reduction round: [8, 64, 112, 112] float32 reduced or
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
		_ = RunSoftmax(Softmax, l, x, y, false, false, Serial)
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
