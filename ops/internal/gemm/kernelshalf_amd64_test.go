//go:build amd64 && !purego

package gemm

import (
	"math/rand/v2"
	"testing"
)

// TestHalfKernelsAreTheFullOnes checks the one-vector kernels against the
// two-vector ones on tiles of at most 16 columns, bit for bit: every row
// count, A in place and packed, alpha and beta 1 or not, with and without
// the finish (row bias, column bias, clamp), C past the tile untouched.
func TestHalfKernelsAreTheFullOnes(t *testing.T) {
	if !haveAVX512 {
		t.Skip("no AVX-512")
	}
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 600 {
		rows, cols, k := 1+r.IntN(12), 1+r.IntN(16), r.IntN(40)
		lda, ldb, ldc := k+r.IntN(3), 32+r.IntN(5), 32+r.IntN(5)
		a := randSlice[float32](r, 12*max(lda, 1)+12*k+1)
		b := randSlice[float32](r, max(k, 1)*ldb+32)
		c0 := randSlice[float32](r, 12*ldc+32)
		alpha, beta := float32(1), float32(0)
		if r.IntN(2) == 0 {
			alpha = float32(r.NormFloat64())
		}
		if r.IntN(2) == 0 {
			beta = float32(r.NormFloat64())
		}
		var bias, colBias *float32
		var clamp *[2]float32
		if i%2 == 1 {
			bias, colBias = &randSlice[float32](r, 12)[0], &randSlice[float32](r, 16)[0]
			clamp = &[2]float32{-0.5, 0.5}
		}
		packed := r.IntN(2) == 0
		full, half := kernel32AVX512, kernel32AVX512H
		if packed {
			full, half = kernel32AVX512P, kernel32AVX512HP
		}
		want := append([]float32(nil), c0...)
		got := append([]float32(nil), c0...)
		full(rows, k, &a[0], lda, &b[0], ldb, &want[0], ldc, 1<<cols-1, alpha, beta, bias, clamp, colBias)
		half(rows, k, &a[0], lda, &b[0], ldb, &got[0], ldc, 1<<cols-1, alpha, beta, bias, clamp, colBias)
		if j := sameFloats(got, want); j >= 0 {
			t.Fatalf("rows %d cols %d k %d packed %v alpha %v beta %v finish %v: element %d = %v, the full kernel's %v", rows, cols, k, packed, alpha, beta, bias != nil, j, got[j], want[j])
		}
	}
}
