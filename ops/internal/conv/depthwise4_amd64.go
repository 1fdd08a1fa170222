//go:build amd64 && !purego

package conv

import "unsafe"

// rows4Taps32AVX512 is rowTaps32AVX512 on four rows at once: for r in
// [0, 4) and j in [0, n), the float32 at y + r*ystep bytes + 4j is set to
// bias plus the sum over the taps t in order of ws[t] *
// src_t[r*xstep bytes + j*stride elements], one fused multiply-add per tap,
// src_t the row at srcs[t]: the same operations on every element as
// rowTaps32AVX512, so the same bits, with four independent chains of
// multiply-adds in flight (one row's chain of taps waits on the
// multiply-add's latency). stride is 1 or 2, taps and n at least 1. Its
// loads past the last element each row needs are masked.
//
//go:noescape
func rows4Taps32AVX512(y *float32, ystep int, n int, srcs *unsafe.Pointer, ws *float32, taps int, stride int, bias float32, xstep int)

// rows4Taps32 runs rows4Taps32AVX512 where it is the kernel in use; false
// when it is not (the caller goes a row at a time). ystep and xstep are in
// elements.
func rows4Taps32(y []float32, ystep, n int, srcs []unsafe.Pointer, ws []float32, stride int, bias float32, xstep int) bool {
	if rowKernel != "avx512" || stride > 2 || len(srcs) == 0 || n <= 0 || len(y) < 3*ystep+n {
		return false
	}
	rows4Taps32AVX512(&y[0], ystep*4, n, &srcs[0], &ws[0], len(srcs), stride, bias, xstep*4)
	return true
}
