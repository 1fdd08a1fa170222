//go:build amd64 && !purego

package clamp

import "golang.org/x/sys/cpu"

var haveAVX = cpu.X86.HasAVX

//go:noescape
func clampF32AVX(dst, src *float32, n int, lo, hi float32)

//go:noescape
func clampF64AVX(dst, src *float64, n int, lo, hi float64)

// float32sVector clamps the longest prefix of src that is a multiple of 32
// elements and returns its length.
func float32sVector(dst, src []float32, lo, hi float32) int {
	n := len(src) &^ 31
	if !haveAVX || n == 0 {
		return 0
	}
	clampF32AVX(&dst[0], &src[0], n, lo, hi)
	return n
}

// float64sVector clamps the longest prefix of src that is a multiple of 16
// elements and returns its length.
func float64sVector(dst, src []float64, lo, hi float64) int {
	n := len(src) &^ 15
	if !haveAVX || n == 0 {
		return 0
	}
	clampF64AVX(&dst[0], &src[0], n, lo, hi)
	return n
}
