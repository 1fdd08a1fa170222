package reduce

import (
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
