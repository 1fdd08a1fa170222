package reduce

import (
	"math"
	"math/rand/v2"
	"testing"
)

// RunArg over a first or middle axis gives, with the vector columns, the
// indices of the one-at-a-time rule (better): NaN, ties, signed zeros and
// infinities, max and min, first and last, inner widths around the block
// of eight.
func TestRunArgColumnsAreTheScalarRule(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 26))
	specials := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0, float32(math.Copysign(0, -1)), 1, -1}
	for _, shape := range [][3]int{{1, 1, 8}, {2, 5, 8}, {1, 7, 9}, {3, 64, 17}, {2, 3, 40}, {1, 1, 3}} {
		outer, n, inner := shape[0], shape[1], shape[2]
		for trial := range 20 {
			x := make([]float32, outer*n*inner)
			for i := range x {
				x[i] = float32(r.IntN(7) - 3)
				if trial%2 == 1 && r.IntN(5) == 0 {
					x[i] = specials[r.IntN(len(specials))]
				}
			}
			for _, max := range []bool{true, false} {
				for _, last := range []bool{false, true} {
					got := make([]int64, outer*inner)
					l := Layout{Outer: outer, N: n, Inner: inner}
					if err := RunArg(l, x, got, max, last, Serial); err != nil {
						t.Fatal(err)
					}
					for o := range outer {
						for j := range inner {
							col := make([]float32, n)
							for i := range n {
								col[i] = x[(o*n+i)*inner+j]
							}
							if want := int64(argBest(col, max, last)); got[o*inner+j] != want {
								t.Fatalf("shape %v max %v last %v: column %d of %d: %v: got %d, want %d", shape, max, last, j, o, col, got[o*inner+j], want)
							}
						}
					}
				}
			}
		}
	}
}
