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

// rowTaps32AVX2 is rowTaps32AVX512 with AVX2 and FMA (8 lanes): the same
// operations on each element, so the same bits.
//
//go:noescape
func rowTaps32AVX2(y *float32, n int, srcs *unsafe.Pointer, ws *float32, taps int, stride int, bias float32)

var (
	haveAVX512 = cpu.X86.HasAVX512F
	haveAVX2   = cpu.X86.HasAVX2 && cpu.X86.HasFMA
)

// rowKernel is the vector kernel in use: the widest this CPU runs (tests
// set it to "avx2" or "go" to run the others).
var rowKernel = func() string {
	switch {
	case haveAVX512:
		return "avx512"
	case haveAVX2:
		return "avx2"
	}
	return "go"
}()

// rowKernels are the kernels this CPU runs, widest first.
func rowKernels() []string {
	var k []string
	if haveAVX512 {
		k = append(k, "avx512")
	}
	if haveAVX2 {
		k = append(k, "avx2")
	}
	return append(k, "go")
}

// rowTaps32 is the vector kernel where the CPU has one; false when it does
// not apply (no vector kernel, stride above 2), and the caller sums in Go.
func rowTaps32(y []float32, srcs []unsafe.Pointer, ws []float32, stride int, bias float32) bool {
	if stride > 2 || len(srcs) == 0 || len(y) == 0 {
		return false
	}
	switch rowKernel {
	case "avx512":
		rowTaps32AVX512(&y[0], len(y), &srcs[0], &ws[0], len(srcs), stride, bias)
	case "avx2":
		rowTaps32AVX2(&y[0], len(y), &srcs[0], &ws[0], len(srcs), stride, bias)
	default:
		return false
	}
	return true
}
