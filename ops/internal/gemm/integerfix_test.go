package gemm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestZeroFixAgreesWithGo checks the vector correction against the Go
// loop on every length up to 40 with values that wrap int32.
func TestZeroFixAgreesWithGo(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for n := range 41 {
		for range 5 {
			row, zb, colB := make([]int32, n), make([]int32, n), make([]int32, n)
			for j := range n {
				row[j], zb[j], colB[j] = r.Int32()-math.MaxInt32/2, int32(r.IntN(511)-255), r.Int32()-math.MaxInt32/2
			}
			tt, za := r.Int32(), int32(r.IntN(511)-255)
			want := append([]int32(nil), row...)
			zeroFixGo(want, zb, colB, tt, za)
			zeroFix(row, zb, colB, tt, za)
			for j := range row {
				if row[j] != want[j] {
					t.Fatalf("n %d: row[%d] = %d, want %d", n, j, row[j], want[j])
				}
			}
		}
	}
}
