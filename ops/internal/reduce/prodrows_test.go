package reduce

import (
	"math"
	"math/rand/v2"
	"testing"
)

// prodRowF32 gives the bits of the plain float32 loop on rows that run
// through the denormals, to zero, back up, and through infinities and
// NaNs.
func TestProdRowF32MatchesPlainLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	specials := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), math.Float32frombits(0x7fa00001), math.Float32frombits(0xffc00123),
		math.Float32frombits(1), math.Float32frombits(0x807fffff), 0x1p-126, -0x1p-126, 0x1p127, 0x1p-100, 3e38, 1e-30}
	var rows [][]float32
	for range 20000 {
		row := make([]float32, 1+r.IntN(300))
		for i := range row {
			switch k := r.IntN(100); {
			case k < 2:
				row[i] = specials[r.IntN(len(specials))]
			case k < 10:
				row[i] = float32(r.NormFloat64() * 1e6)
			case k < 20:
				row[i] = float32(math.Ldexp(r.Float64()+0.5, -r.IntN(40)))
			default:
				row[i] = 2*r.Float32() - 1
			}
		}
		rows = append(rows, row)
		want := float32(1)
		for _, v := range row {
			want *= v
		}
		if got := prodRowF32(1, row); math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("product %v (%#x), want %v (%#x)", got, math.Float32bits(got), want, math.Float32bits(want))
		}
	}
	// Rows of one length, in fours and one left over, as rowProdsF32
	// takes them.
	for trial := range 4000 {
		n := []int{1, 7, 112, 300}[trial%4]
		x := make([]float32, 0, 9*n)
		for len(x) < 9*n {
			x = append(x, rows[r.IntN(len(rows))]...)
		}
		x = x[:9*n]
		y := make([]float32, 9)
		rowProdsF32(x, n, y)
		for i := range y {
			want := float32(1)
			for _, v := range x[i*n : (i+1)*n] {
				want *= v
			}
			if got := y[i]; math.Float32bits(got) != math.Float32bits(want) {
				t.Fatalf("n %d, row %d: product %v (%#x), want %v (%#x)", n, i, got, math.Float32bits(got), want, math.Float32bits(want))
			}
		}
	}
}
