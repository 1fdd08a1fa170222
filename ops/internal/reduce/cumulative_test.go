package reduce

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The row walk (Inner 1), rows alone and four abreast, gives the bits of
// the row-by-row walk: the data
// as one column of an [outer, n, 2] block (both columns the same) takes
// the general path. Any two NaNs are alike: the compiler may swap the
// operands of an addition, and x86 keeps the first one's payload.
func TestCumulativeRowIsTheColumnWalk(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 26))
	specials := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0, float32(math.Copysign(0, -1))}
	// outer 9: two groups of four rows abreast and one row alone.
	for _, c := range []struct{ n, outer int }{{1, 3}, {2, 3}, {3, 3}, {17, 3}, {100, 3}, {1, 9}, {2, 9}, {17, 9}, {32, 9}, {40, 9}} {
		n, outer := c.n, c.outer
		x := make([]float32, outer*n)
		for i := range x {
			x[i] = r.Float32()*4 - 2
			if r.IntN(6) == 0 {
				x[i] = specials[r.IntN(len(specials))]
			}
		}
		wide := make([]float32, 2*len(x))
		for i, v := range x {
			wide[2*i], wide[2*i+1] = v, v
		}
		for _, product := range []bool{false, true} {
			for _, exclusive := range []bool{false, true} {
				for _, reverse := range []bool{false, true} {
					got, want := make([]float32, len(x)), make([]float32, len(wide))
					if err := runCumulative(Layout{Outer: outer, N: n, Inner: 1}, x, got, exclusive, reverse, product, Serial); err != nil {
						t.Fatal(err)
					}
					if err := runCumulative(Layout{Outer: outer, N: n, Inner: 2}, wide, want, exclusive, reverse, product, Serial); err != nil {
						t.Fatal(err)
					}
					for i, v := range got {
						w := want[2*i]
						if math.Float32bits(v) != math.Float32bits(w) && !(v != v && w != w) {
							t.Fatalf("n %d product %v exclusive %v reverse %v: element %d: %v, want %v", n, product, exclusive, reverse, i, v, w)
						}
					}
				}
			}
		}
	}
}

// The streamed walk of a large output (blocks of columns, an accumulator)
// gives the bits of the row-by-row walk, blocks whole and partial.
func TestCumulativeStreamedIsTheRowWalk(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 26))
	specials := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0, float32(math.Copysign(0, -1))}
	if _, streamed := vectorRows[float32](false); streamed == nil {
		t.Skip("no streaming stores here")
	}
	for _, l := range []Layout{{Outer: 3, N: 5, Inner: 2*cumulativeBlock + 37}, {Outer: 1, N: 1, Inner: 9}, {Outer: 2, N: 4, Inner: cumulativeBlock}} {
		x := make([]float32, l.Outer*l.N*l.Inner)
		for i := range x {
			x[i] = r.Float32()*4 - 2
			if r.IntN(50) == 0 {
				x[i] = specials[r.IntN(len(specials))]
			}
		}
		for _, product := range []bool{false, true} {
			combine, streamed := vectorRows[float32](product)
			for _, exclusive := range []bool{false, true} {
				for _, reverse := range []bool{false, true} {
					got, want := make([]float32, len(x)), make([]float32, len(x))
					if err := cumulativeStreamed(l, x, got, exclusive, reverse, product, combine, streamed, Serial); err != nil {
						t.Fatal(err)
					}
					if err := runCumulative(l, x, want, exclusive, reverse, product, Serial); err != nil {
						t.Fatal(err)
					}
					for i, v := range got {
						if w := want[i]; math.Float32bits(v) != math.Float32bits(w) && !(v != v && w != w) {
							t.Fatalf("%+v product %v exclusive %v reverse %v: y[%d] = %v, want %v", l, product, exclusive, reverse, i, v, w)
						}
					}
				}
			}
		}
	}
}
