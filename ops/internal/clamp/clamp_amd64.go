//go:build amd64 && !purego

package clamp

import "golang.org/x/sys/cpu"

var haveAVX = cpu.X86.HasAVX

//go:noescape
func clampF32AVX(dst, src *float32, n int, lo, hi float32)

//go:noescape
func clampF64AVX(dst, src *float64, n int, lo, hi float64)

// float32sVector clamps src with AVX and returns its length (0 without
// AVX). The tail past the last multiple of 32 goes through the same
// kernel in a buffer on the stack: the same rule as the plain loop, and
// no branch per element to mispredict (a fused ReLU6 after a 7x7 or
// 14x14 depthwise convolution calls this on short rows, whose signs are
// random).
func float32sVector(dst, src []float32, lo, hi float32) int {
	if !haveAVX || len(src) == 0 {
		return 0
	}
	n := len(src) &^ 31
	if n > 0 {
		clampF32AVX(&dst[0], &src[0], n, lo, hi)
	}
	if rest := len(src) - n; rest > 0 {
		var buf [32]float32
		copy(buf[:], src[n:])
		clampF32AVX(&buf[0], &buf[0], 32, lo, hi)
		copy(dst[n:], buf[:rest])
	}
	return len(src)
}

// float64sVector is float32sVector for float64 (16 elements a block).
func float64sVector(dst, src []float64, lo, hi float64) int {
	if !haveAVX || len(src) == 0 {
		return 0
	}
	n := len(src) &^ 15
	if n > 0 {
		clampF64AVX(&dst[0], &src[0], n, lo, hi)
	}
	if rest := len(src) - n; rest > 0 {
		var buf [16]float64
		copy(buf[:], src[n:])
		clampF64AVX(&buf[0], &buf[0], 16, lo, hi)
		copy(dst[n:], buf[:rest])
	}
	return len(src)
}
