package reduce

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestColumnSumsKernel checks colSumsF32 and reduceColumns's float32 sums
// bit for bit against sumColumnsOf with parts, across row counts below,
// at and above sixteen, widths around the chunk of thirty-two, and NaN,
// ±0 and ±Inf among the elements.
func TestColumnSumsKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	specials := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), math.Float32frombits(0x7fc00123), math.Float32frombits(0xffc00456), 1e30, -1e30}
	for n := 1; n <= 40; n++ {
		for _, w := range []int{1, 16, 31, 32, 33, 64, 95, 100} {
			for _, c0 := range []int{0, 3} {
				for _, special := range []bool{false, true} {
					inner := c0 + w + 5
					x := make([]float32, n*inner)
					for i := range x {
						x[i] = float32(rng.NormFloat64())
						if special && rng.IntN(6) == 0 {
							x[i] = specials[rng.IntN(len(specials))]
						}
						if !special && rng.IntN(4) == 0 {
							x[i] = float32(math.Copysign(0, -1))
						}
					}
					parts := make([]float32, min(n, lanes)*w)
					for _, op := range []Op{{Kind: Sum}, {Kind: Mean}, {Kind: SumSquare}, {Kind: L2}, {Kind: L1}} {
						want := make([]float32, w)
						if op.Kind == Sum || op.Kind == Mean {
							sumColumnsOf(x, n, inner, c0, want, parts, nil)
						} else {
							// The parts path, one row at a time.
							sumColumnsTerm(x, n, inner, c0, want, parts, op.Kind != L1)
						}
						got := make([]float32, w)
						reduceColumns(op, x, n, inner, c0, got, nil, &lazyParts[float32]{s: parts})
						for j := range got {
							wj := finish(op, want[j], 0, n)
							if math.Float32bits(got[j]) != math.Float32bits(wj) {
								t.Fatalf("n %d w %d c0 %d kind %d column %d: %x, want %x", n, w, c0, op.Kind, j, math.Float32bits(got[j]), math.Float32bits(wj))
							}
						}
					}
				}
			}
		}
	}
}

// BenchmarkSumMiddle25MB and BenchmarkSumFirst25MB are ReduceSum over
// axis 1 and axis 0 of float32 [8, 64, 112, 112] on one core.
func BenchmarkSumMiddle25MB(b *testing.B) { benchColumns(b, Sum, 8, 64, 112*112) }
func BenchmarkSumFirst25MB(b *testing.B)  { benchColumns(b, Sum, 1, 8, 64*112*112) }

// BenchmarkL2First25MB is ReduceL2 over axis 0 of [8, 64, 112, 112].
func BenchmarkL2First25MB(b *testing.B) { benchColumns(b, L2, 1, 8, 64*112*112) }

// BenchmarkL2First25MBParts is BenchmarkL2First25MB through the partial
// rows in memory.
func BenchmarkL2First25MBParts(b *testing.B) {
	defer func(h bool) { haveColSumsAVX512 = h }(haveColSumsAVX512)
	haveColSumsAVX512 = false
	benchColumns(b, L2, 1, 8, 64*112*112)
}

func benchColumns(b *testing.B, k Kind, outer, n, inner int) {
	x := make([]float32, outer*n*inner)
	for i := range x {
		x[i] = float32(i%97) * 0.25
	}
	y := make([]float32, outer*inner)
	l := Layout{Outer: outer, N: n, Inner: inner}
	b.SetBytes(int64(len(x) * 4))
	for b.Loop() {
		if err := Run(Op{Kind: k}, l, x, y, Serial); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSumMiddle25MBParts is BenchmarkSumMiddle25MB through the
// partial rows in memory (the path before colSumsF32).
func BenchmarkSumMiddle25MBParts(b *testing.B) {
	defer func(h bool) { haveColSumsAVX512 = h }(haveColSumsAVX512)
	haveColSumsAVX512 = false
	benchColumns(b, Sum, 8, 64, 112*112)
}

// TestLp2Rows checks Run's float32 Lp with p 2 over rows against
// reduceRow, bit for bit, with NaN payloads, ±0 and ±Inf.
func TestLp2Rows(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	specials := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), math.Float32frombits(0x7fc00123), math.Float32frombits(0xffc00456), 1e30, 1e-30}
	op := Op{Kind: Lp, P: 2}
	for n := 1; n <= 40; n++ {
		rows := 7
		x := make([]float32, rows*n)
		for i := range x {
			x[i] = float32(rng.NormFloat64())
			if rng.IntN(20) == 0 {
				x[i] = specials[rng.IntN(len(specials))]
			}
		}
		y := make([]float32, rows)
		if err := Run(op, Layout{Outer: rows, N: n, Inner: 1}, x, y, Serial); err != nil {
			t.Fatal(err)
		}
		for r := range y {
			want := reduceRow(op, x[r*n:(r+1)*n])
			if math.Float32bits(y[r]) != math.Float32bits(want) {
				t.Fatalf("n %d row %d: %x, want %x", n, r, math.Float32bits(y[r]), math.Float32bits(want))
			}
		}
	}
}

// TestColumnExtremesKernel checks the float32 Max, Min and Prod columns
// (colExtremesF32, colProdsF32) bit for bit against reduceColumns's loops
// without them, across widths around the chunk of 128, with ±0 (the first
// of equal values kept), ±Inf and NaN payloads among the elements.
func TestColumnExtremesKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 2))
	specials := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), math.Float32frombits(0x7fc00123), math.Float32frombits(0xffc00456), 1e30, -1e30}
	for _, n := range []int{1, 2, 3, 8, 17, 31, 32, 33, 64, 100} {
		for _, w := range []int{1, 127, 128, 129, 256, 300, 512} {
			for _, c0 := range []int{0, 3} {
				for _, special := range []bool{false, true} {
					inner := c0 + w + 5
					x := make([]float32, n*inner)
					for i := range x {
						x[i] = float32(rng.IntN(7)-3) * 0.5 // ties
						if rng.IntN(5) == 0 {
							x[i] = float32(math.Copysign(0, float64(rng.IntN(2)*2-1)))
						}
						if special && rng.IntN(200) == 0 {
							x[i] = specials[rng.IntN(len(specials))]
						}
					}
					for _, k := range []Kind{Max, Min, Prod} {
						got, want := make([]float32, w), make([]float32, w)
						reduceColumns(Op{Kind: k}, x, n, inner, c0, got, nil, nil)
						haveColSumsAVX512 = false
						reduceColumns(Op{Kind: k}, x, n, inner, c0, want, nil, nil)
						haveColSumsAVX512 = true
						for j := range got {
							if math.Float32bits(got[j]) != math.Float32bits(want[j]) {
								t.Fatalf("n %d w %d c0 %d kind %d column %d: %x, want %x", n, w, c0, k, j, math.Float32bits(got[j]), math.Float32bits(want[j]))
							}
						}
					}
				}
			}
		}
	}
}

// BenchmarkProdMiddle25MB and BenchmarkMaxFirst25MB are ReduceProd over
// axis 1 and ReduceMax over axis 0 of float32 [8, 64, 112, 112] on one core.
func BenchmarkProdMiddle25MB(b *testing.B) { benchColumns(b, Prod, 8, 64, 112*112) }
func BenchmarkMaxFirst25MB(b *testing.B)   { benchColumns(b, Max, 1, 8, 64*112*112) }

// BenchmarkMaxMiddle25MBRows is BenchmarkMaxMiddle25MB through the row
// loop (the path before colExtremesF32).
func BenchmarkMaxMiddle25MBRows(b *testing.B) {
	defer func(h bool) { haveColSumsAVX512 = h }(haveColSumsAVX512)
	haveColSumsAVX512 = false
	benchColumns(b, Max, 8, 64, 112*112)
}
