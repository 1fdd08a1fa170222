//go:build amd64 && !purego

package quant

import (
	"math"
	"unsafe"

	"golang.org/x/sys/cpu"
)

var (
	haveAVX512   = cpu.X86.HasAVX512F
	haveAVX512BW = cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VL
)

//go:noescape
func quantizeAVX512(o *byte, x *float32, n int, s float32, z, lo, hi int32)

//go:noescape
func dequantizeU8AVX512(o *float32, x *byte, n int, s float32, z int32)

//go:noescape
func dequantizeS8AVX512(o *float32, x *byte, n int, s float32, z int32)

// quantizeVector does the longest prefix of o that is a multiple of 16
// elements and returns its length (0 without AVX-512).
func quantizeVector[T Int8](o []T, x []float32, s float32, z, lo, hi int64) int {
	n := len(o) &^ 15
	if !haveAVX512 || n == 0 {
		return 0
	}
	_ = x[n-1]
	quantizeAVX512((*byte)(unsafe.Pointer(&o[0])), &x[0], n, s, int32(z), int32(lo), int32(hi))
	return n
}

// dequantizeVector is quantizeVector for Dequantize.
func dequantizeVector[T Int8](o []float32, x []T, s float32, z int32) int {
	n := len(o) &^ 15
	if !haveAVX512 || n == 0 {
		return 0
	}
	_ = x[n-1]
	var zero T
	if ^zero < 0 { // signed
		dequantizeS8AVX512(&o[0], (*byte)(unsafe.Pointer(&x[0])), n, s, z)
	} else {
		dequantizeU8AVX512(&o[0], (*byte)(unsafe.Pointer(&x[0])), n, s, z)
	}
	return n
}

//go:noescape
func requantAVX512(out *byte, acc *int32, n int, bias int32, mult, zero, lo, hi float64)

//go:noescape
func requantColsAVX512(out *byte, acc *int32, mults *float64, n int, zero, lo, hi float64)

// requantVector does the longest prefix of out that is a multiple of 16
// elements, when mult is finite, and returns its length.
func requantVector(out []byte, acc []int32, bias int32, mult, zero, lo, hi float64) int {
	n := len(out) &^ 15
	if !haveAVX512 || n == 0 || math.IsInf(mult, 0) || mult != mult {
		return 0
	}
	_ = acc[n-1]
	requantAVX512(&out[0], &acc[0], n, bias, mult, zero, lo, hi)
	return n
}

// requantColsVector is requantVector with one multiplier per element,
// every one of them finite.
func requantColsVector(out []byte, acc []int32, mults []float64, zero, lo, hi float64) int {
	n := len(out) &^ 15
	if !haveAVX512 || n == 0 {
		return 0
	}
	_, _ = acc[n-1], mults[n-1]
	for _, m := range mults[:n] {
		if math.IsInf(m, 0) || m != m {
			return 0
		}
	}
	requantColsAVX512(&out[0], &acc[0], &mults[0], n, zero, lo, hi)
	return n
}

//go:noescape
func addAVX512(o, a, b *byte, n int, p *AddParams)

// addVector does the longest prefix of o that is a multiple of 16
// elements and returns its length (0 without AVX-512).
func addVector[T Int8](p *AddParams, o, a, b []T) int {
	n := len(o) &^ 15
	var zero T
	if !haveAVX512 || n == 0 || (^zero < 0) != (p.signed != 0) {
		return 0
	}
	_, _ = a[n-1], b[n-1]
	addAVX512((*byte)(unsafe.Pointer(&o[0])), (*byte)(unsafe.Pointer(&a[0])), (*byte)(unsafe.Pointer(&b[0])), n, p)
	return n
}

//go:noescape
func maxIntoAVX512(dst, src *byte, n int, signed bool)

//go:noescape
func maxWindowsAVX512(dst, src *byte, n, taps, dil, stride int, signed bool)

// maxIntoVector does all of dst when it holds 64 bytes or more (the last
// 64 again, overlapping: a maximum taken twice is the same) and returns
// its length (0 without AVX-512).
func maxIntoVector(dst, src []byte, signed bool) int {
	n := len(dst) &^ 63
	if !haveAVX512BW || n == 0 {
		return 0
	}
	_ = src[len(dst)-1]
	maxIntoAVX512(&dst[0], &src[0], n, signed)
	if n < len(dst) {
		maxIntoAVX512(&dst[len(dst)-64], &src[len(dst)-64], 64, signed)
	}
	return len(dst)
}

// maxWindowsVector does the longest prefix of dst that is a multiple of
// 32 windows whose loads stay inside src (a stride of 2 loads one byte
// past its last window's), for a stride of 1 or 2, and returns its length.
func maxWindowsVector(dst, src []byte, taps, dil, stride int, signed bool) int {
	if !haveAVX512BW || (stride != 1 && stride != 2) || taps < 1 || dil < 1 {
		return 0
	}
	// Chunk c reads src[32c*stride : 32c*stride + 32*stride + (taps-1)*dil).
	reach := 32*stride + (taps-1)*dil
	if len(src) < reach {
		return 0
	}
	n := min(len(dst)/32, (len(src)-reach)/(32*stride)+1) * 32
	if n == 0 {
		return 0
	}
	maxWindowsAVX512(&dst[0], &src[0], n, taps, dil, stride, signed)
	if last := len(dst) - 32; n < len(dst) && last*stride+reach <= len(src) {
		// The last 32 windows, overlapping: the same values again.
		maxWindowsAVX512(&dst[last], &src[last*stride], 32, taps, dil, stride, signed)
		return len(dst)
	}
	return n
}
