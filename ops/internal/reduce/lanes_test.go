package reduce

import (
	"math"
	"math/rand/v2"
	"testing"
)

// sumByDefinition is the lane order written as reference/sumlanes.go
// defines it, one element at a time.
func sumByDefinition[A Number](v []A) A {
	var p [16]A
	for k, x := range v {
		p[k%16] += x
	}
	for half := 8; half >= 1; half /= 2 {
		for j := range half {
			p[j] += p[j+half]
		}
	}
	return p[0]
}

// laneTestRows is rows*n float32s whose magnitudes vary enough that the
// order of the additions changes the sum; special adds NaN, infinities,
// -0, the largest float32 and the smallest subnormal.
func laneTestRows(rng *rand.Rand, rows, n int, special bool) []float32 {
	specials := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.Copysign(0, -1)), 0, math.MaxFloat32, -math.MaxFloat32, 1e-45}
	x := make([]float32, rows*n)
	for i := range x {
		x[i] = float32(rng.NormFloat64() * math.Pow(10, float64(rng.IntN(16)-8)))
		if special && rng.IntN(8) == 0 {
			x[i] = specials[rng.IntN(len(specials))]
		}
	}
	return x
}

func sameFloat32(a, b float32) bool {
	return math.Float32bits(a) == math.Float32bits(b) || (a != a && b != b)
}

// TestRowSumsF32 checks the vector row sums (AVX-512, AVX2, and Go's loop
// where the processor has neither) against the definition, bit for bit:
// every length to 70 and some long rows (tails of every size, rows shorter
// than a vector), orders that matter, the special values, rows of -0 only
// (which sum to +0, as from 0 in order); sums and means (divided eight at a
// time).
func TestRowSumsF32(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 7))
	lengths := []int{112, 255, 256, 1000}
	for n := range 71 {
		lengths = append(lengths, n)
	}
	forEachKernel(t, func(t *testing.T) {
		for _, n := range lengths {
			for trial := range 4 {
				rows := 1 + rng.IntN(40)
				x := laneTestRows(rng, rows, n, trial >= 2)
				if trial == 1 {
					for i := range x {
						x[i] = float32(math.Copysign(0, -1))
					}
				}
				for _, mean := range []bool{false, true} {
					sums := make([]float32, rows)
					rowSumsF32(x, n, sums, mean)
					for r := range rows {
						sum := sumByDefinition(x[r*n : (r+1)*n])
						if got := sumRow(x[r*n : (r+1)*n]); !sameFloat32(got, sum) {
							t.Fatalf("row of %d, trial %d: sumRow gives %v, the definition %v", n, trial, got, sum)
						}
						want := sum
						if mean {
							want = sum / float32(n)
						}
						if !sameFloat32(sums[r], want) {
							t.Fatalf("%d rows of %d, trial %d, mean %v: row %d gives %v, the definition %v", rows, n, trial, mean, r, sums[r], want)
						}
					}
				}
			}
		}
	})
}

// TestSumColumns checks the column blocks' sixteen rows of partials against
// the definition on each column, float32 and float64, with and without a
// term.
func TestSumColumns(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for _, n := range []int{0, 1, 15, 16, 17, 40, 100} {
		for _, inner := range []int{1, 3, 17} {
			x := laneTestRows(rng, n, inner, n == 40)
			w := inner - 1
			if w == 0 {
				w = 1
			}
			c0 := inner - w
			out := make([]float32, w)
			sumColumnsOf(x, n, inner, c0, out, make([]float32, lanes*w), nil)
			sq := make([]float64, w)
			x64 := make([]float64, len(x))
			for i, v := range x {
				x64[i] = float64(v)
			}
			sumColumnsOf(x64, n, inner, c0, sq, make([]float64, lanes*w), func(_ int, v float64) float64 { return float64(v * v) })
			for j := range w {
				col := make([]float32, n)
				col64 := make([]float64, n)
				for i := range n {
					col[i] = x[i*inner+c0+j]
					col64[i] = float64(col[i]) * float64(col[i])
				}
				if want := sumByDefinition(col); !sameFloat32(out[j], want) {
					t.Fatalf("%d rows of %d, column %d: %v, the definition gives %v", n, inner, c0+j, out[j], want)
				}
				if want := sumByDefinition(col64); sq[j] != want && !(sq[j] != sq[j] && want != want) {
					t.Fatalf("%d rows of %d, column %d: squares sum to %v, the definition gives %v", n, inner, c0+j, sq[j], want)
				}
			}
		}
	}
}
