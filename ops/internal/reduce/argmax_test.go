package reduce

import (
	"math"
	"math/rand/v2"
	"testing"
)

// RunArg over a first or middle axis gives, with the vector columns, the
// indices of the one-at-a-time rule (better): NaN, ties, signed zeros and
// infinities, max and min, first and last, inner widths around the
// blocks of 128, 16 and 8, with and without the AVX-512 loop.
func TestRunArgColumnsAreTheScalarRule(t *testing.T) {
	saved := haveArgAVX512
	defer func() { haveArgAVX512 = saved }()
	for _, wide := range []bool{true, false} {
		haveArgAVX512 = wide && saved
		t.Run(map[bool]string{true: "AVX-512", false: "AVX2"}[wide], runArgColumnsAreTheScalarRule)
	}
}

func runArgColumnsAreTheScalarRule(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 26))
	specials := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0, float32(math.Copysign(0, -1)), 1, -1}
	for _, shape := range [][3]int{{1, 1, 8}, {2, 5, 8}, {1, 7, 9}, {3, 64, 17}, {2, 3, 40}, {1, 1, 3}, {2, 9, 128 + 16 + 8 + 3}, {1, 3, 256 + 16}, {2, 1, 131}, {2, 3, 2*argColumnBlock + 128 + 16 + 5}} {
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
					for i := range got {
						got[i] = -7 // storage from a pool is not cleared
					}
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

// RunArg and Hardmax over the last axis give, with the vector rows, the
// indices of the one-at-a-time rule (better): NaN, ties, signed zeros and
// infinities, max and min, first and last, rows around the vector widths,
// with and without the vector loops.
func TestRunArgRowsAreTheScalarRule(t *testing.T) {
	saved := haveRowsAVX512
	defer func() { haveRowsAVX512 = saved }()
	r := rand.New(rand.NewPCG(4, 27))
	specials := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0, float32(math.Copysign(0, -1)), 1, -1}
	for _, vector := range []bool{true, false} {
		haveRowsAVX512 = vector && saved
		for _, shape := range [][2]int{{1, 1}, {3, 15}, {5, 16}, {4, 17}, {300, 33}, {2, 112}, {600, 7}, {3, 200}} {
			rows, n := shape[0], shape[1]
			for trial := range 12 {
				x := make([]float32, rows*n)
				for i := range x {
					x[i] = float32(r.IntN(9) - 4)
					if trial%3 == 0 {
						x[i] = r.Float32()
					}
					if trial%2 == 1 && r.IntN(7) == 0 {
						x[i] = specials[r.IntN(len(specials))]
					}
				}
				for _, max := range []bool{true, false} {
					for _, last := range []bool{false, true} {
						got := make([]int64, rows)
						if err := RunArg(Layout{Outer: rows, N: n, Inner: 1}, x, got, max, last, Serial); err != nil {
							t.Fatal(err)
						}
						for o := range rows {
							if want := int64(argBest(x[o*n:(o+1)*n], max, last)); got[o] != want {
								t.Fatalf("vector %v shape %v max %v last %v: row %d %v: got %d, want %d", vector, shape, max, last, o, x[o*n:(o+1)*n], got[o], want)
							}
						}
					}
				}
				y := make([]float32, len(x))
				for i := range y {
					y[i] = 7
				}
				if err := RunSoftmax(Hardmax, Layout{Outer: rows, N: n, Inner: 1}, x, y, false, false, Serial); err != nil {
					t.Fatal(err)
				}
				for o := range rows {
					at := argBest(x[o*n:(o+1)*n], true, false)
					for i, v := range y[o*n : (o+1)*n] {
						if want := float32(0); v != want && !(i == at && v == 1) || i == at && v != 1 {
							t.Fatalf("vector %v shape %v: Hardmax row %d element %d is %v (first largest at %d)", vector, shape, o, i, v, at)
						}
					}
				}
			}
		}
	}
}
