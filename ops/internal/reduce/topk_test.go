package reduce

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestTopKSelectionMatchesSort checks the heap selection and the full sort
// against a stable sort of each slice, on rows with many ties and NaNs, for
// every k and both directions: the results must be the same elements in
// the same order.
func TestTopKSelectionMatchesSort(t *testing.T) {
	saved := haveRowsAVX512
	defer func() { haveRowsAVX512 = saved }()
	for _, vector := range []bool{true, false} {
		haveRowsAVX512 = vector && saved
		testTopKSelectionMatchesSort(t)
	}
}

func testTopKSelectionMatchesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 300 {
		outer, n, inner := 1+r.IntN(3), 1+r.IntN(90), 1+r.IntN(3)
		if trial%3 == 1 { // long contiguous rows: the float32 skip
			n, inner = 1+r.IntN(600), 1
		}
		rare := trial%6 == 1 // few NaNs and ties: the skip runs long
		x := make([]float32, outer*n*inner)
		for i := range x {
			switch r.IntN(12) {
			case 0:
				x[i] = float32(math.NaN())
			case 1:
				x[i] = float32(math.Inf(1 - 2*r.IntN(2)))
			case 2: // zeros of both signs (equal), a NaN with its sign set
				x[i] = []float32{0, float32(math.Copysign(0, -1)), math.Float32frombits(0xffc00000)}[r.IntN(3)]
			default:
				x[i] = float32(r.IntN(7) - 2) // ties
			}
			if rare {
				x[i] = float32(r.NormFloat64())
				if r.IntN(200) == 0 {
					x[i] = float32(math.NaN())
				}
			}
		}
		k := r.IntN(n + 1)
		if trial%2 == 0 {
			k = r.IntN(n/8 + 1) // the heap's range
		}
		largest := r.IntN(2) == 0
		l := Layout{Outer: outer, N: n, Inner: inner}
		vals := make([]float32, outer*k*inner)
		idx := make([]int64, outer*k*inner)
		if err := RunTopK(l, x, k, largest, vals, idx, Serial); err != nil {
			t.Fatal(err)
		}
		// float64 takes the generic path (float32 compares keys): the same
		// order.
		x64 := make([]float64, len(x))
		for i, v := range x {
			x64[i] = float64(v)
		}
		vals64, idx64 := make([]float64, len(vals)), make([]int64, len(idx))
		if err := RunTopK(l, x64, k, largest, vals64, idx64, Serial); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(idx, idx64) {
			t.Fatalf("trial %d: float64 indices %v, float32 %v", trial, idx64, idx)
		}
		for o := range outer {
			for j := range inner {
				order := make([]int, n)
				for i := range order {
					order[i] = i
				}
				at := func(i int) float32 { return x[(o*n+i)*inner+j] }
				slices.SortStableFunc(order, func(a, b int) int {
					c := compareNaNLast(at(a), at(b))
					if largest {
						c = -c
					}
					return c
				})
				for q := range k {
					gi := idx[(o*k+q)*inner+j]
					gv := vals[(o*k+q)*inner+j]
					if gi != int64(order[q]) || math.Float32bits(gv) != math.Float32bits(at(order[q])) {
						t.Fatalf("trial %d (n %d, k %d, largest %v): rank %d is index %d (%v), want %d (%v)",
							trial, n, k, largest, q, gi, gv, order[q], at(order[q]))
					}
				}
			}
		}
	}
}

// BenchmarkTopK is the every-operator round's case: k = 10 over 8,192
// columns, 256 rows (Small: over 256 columns, 4 rows).
func BenchmarkTopK(b *testing.B) {
	b.Run("Large", func(b *testing.B) { benchmarkTopK(b, 256, 8192, 10) })
	b.Run("Small", func(b *testing.B) { benchmarkTopK(b, 4, 256, 10) })
}

func benchmarkTopK(b *testing.B, rows, n, k int) {
	r := rand.New(rand.NewPCG(1, 2))
	x := make([]float32, rows*n)
	for i := range x {
		x[i] = r.Float32()
	}
	vals := make([]float32, rows*k)
	idx := make([]int64, rows*k)
	l := Layout{Outer: rows, N: n, Inner: 1}
	b.SetBytes(int64(len(x) * 4))
	for b.Loop() {
		if err := RunTopK(l, x, k, true, vals, idx, Serial); err != nil {
			b.Fatal(err)
		}
	}
}
