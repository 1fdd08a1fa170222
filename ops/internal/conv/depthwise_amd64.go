//go:build amd64 && !purego

package conv

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// rowTaps32AVX512 sets y[j], j in [0, n), to bias plus the sum over the
// taps t in order of ws[t] * src_t[j*stride], one fused multiply-add per
// tap, where src_t is the float32 row at srcs[t]; stride is 1 or 2, taps at
// least 1. It reads src_t[0 .. (n-1)*stride] and nothing past it (the last
// block's loads are masked).
//
//go:noescape
func rowTaps32AVX512(y *float32, n int, srcs *unsafe.Pointer, ws *float32, taps int, stride int, bias float32)

var haveAVX512 = cpu.X86.HasAVX512F

// rowTaps32 is rowTaps32AVX512 where the CPU has it; false when it does
// not apply (no AVX-512, stride above 2), and the caller sums in Go.
func rowTaps32(y []float32, srcs []unsafe.Pointer, ws []float32, stride int, bias float32) bool {
	if !haveAVX512 || stride > 2 || len(srcs) == 0 || len(y) == 0 {
		return false
	}
	rowTaps32AVX512(&y[0], len(y), &srcs[0], &ws[0], len(srcs), stride, bias)
	return true
}
