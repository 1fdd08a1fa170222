package reduce

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestSoftmaxRowsF32 checks the float32 softmax over the last axis (vector
// maxima, exponentials, sums and quotients) against softmaxRow's plain
// loop, bit for bit: every row count to 40 and a few across the blocks
// of 64 rows of the LogSoftmax kernels, lengths with and without a tail,
// NaN, infinities, -0 and rows of -inf only; under SONNX too, where both
// take math.Exp.
func TestSoftmaxRowsF32(t *testing.T) { forEachKernel(t, testSoftmaxRowsF32) }

func testSoftmaxRowsF32(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	inf := float32(math.Inf(1))
	specials := []float32{float32(math.NaN()), inf, -inf, float32(math.Copysign(0, -1)), 0, 88, -100}
	for _, n := range []int{1, 3, 7, 8, 9, 16, 21, 112} {
		outers := []int{63, 64, 65, 130}
		for o := 1; o <= 40; o++ {
			outers = append(outers, o)
		}
		for _, outer := range outers {
			x := make([]float32, outer*n)
			for i := range x {
				x[i] = float32(rng.NormFloat64() * 10)
				if rng.IntN(50) == 0 {
					x[i] = specials[rng.IntN(len(specials))]
				}
			}
			if outer > 2 {
				for i := range n {
					x[2*n+i] = -inf // a row of -inf only
				}
			}
			for _, kind := range []SoftmaxKind{Softmax, LogSoftmax} {
				for i, sonnx := range []bool{false, true, false} {
					// The third run streams its stores, into a y on a
					// line's boundary (where rows of 16 and 112 take them).
					stream := i == 2
					buf := make([]float32, len(x)+16)
					off := (64 - int(uintptr(unsafe.Pointer(&buf[0]))%64)) % 64 / 4
					y := buf[off : off+len(x)]
					if err := RunSoftmax(kind, Layout{Outer: outer, N: n, Inner: 1}, x, y, sonnx, stream, Serial); err != nil {
						t.Fatal(err)
					}
					want := make([]float32, n)
					for o := range outer {
						softmaxRow(kind, x[o*n:(o+1)*n], want, sonnx)
						for i, w := range want {
							if g := y[o*n+i]; math.Float32bits(g) != math.Float32bits(w) && !(g != g && w != w) {
								t.Fatalf("kind %d, %d rows of %d, sonnx %v, stream %v: row %d element %d is %v, the plain loop gives %v", kind, outer, n, sonnx, stream, o, i, g, w)
							}
						}
					}
				}
			}
		}
	}
}

// The softmax family over the last axis of every-operator's large case
// ([8, 64, 112, 112] float32, rows of 112), on one core.
// The ...Cached ones are 2048 such rows (0.9 MB), in the second-level
// cache: the kernels' own work, without the memory's.
func BenchmarkLogSoftmaxLast25MB(b *testing.B)   { benchSoftmaxLast(b, LogSoftmax, 8*64*112) }
func BenchmarkSoftmaxLast25MB(b *testing.B)      { benchSoftmaxLast(b, Softmax, 8*64*112) }
func BenchmarkLogSoftmaxLastCached(b *testing.B) { benchSoftmaxLast(b, LogSoftmax, 2048) }
func BenchmarkSoftmaxLastCached(b *testing.B)    { benchSoftmaxLast(b, Softmax, 2048) }

// The ...Small ones are every-operator's small case: 64 rows of 16.
func BenchmarkLogSoftmaxLastSmall(b *testing.B) { benchSoftmaxRows(b, LogSoftmax, 64, 16) }
func BenchmarkSoftmaxLastSmall(b *testing.B)    { benchSoftmaxRows(b, Softmax, 64, 16) }

func benchSoftmaxLast(b *testing.B, kind SoftmaxKind, rows int) { benchSoftmaxRows(b, kind, rows, 112) }

func benchSoftmaxRows(b *testing.B, kind SoftmaxKind, rows, n int) {
	x := benchRows(rows, n)
	y := make([]float32, len(x))
	b.SetBytes(int64(len(x)) * 4)
	for b.Loop() {
		if err := RunSoftmax(kind, Layout{Outer: len(x) / n, N: n, Inner: 1}, x, y, false, false, Serial); err != nil {
			b.Fatal(err)
		}
	}
}
