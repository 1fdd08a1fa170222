//go:build amd64 && !purego

package quant

import (
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
