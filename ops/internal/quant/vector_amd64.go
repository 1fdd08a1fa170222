//go:build amd64 && !purego

package quant

import (
	"math"
	"unsafe"

	"golang.org/x/sys/cpu"
)

var haveAVX512 = cpu.X86.HasAVX512F

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
