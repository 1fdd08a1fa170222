//go:build amd64 && !purego

package convert

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// The vector loops of boolvec_amd64.s (scripts/gen-cmp-asm.py): float32
// to bool by a compare with zero, VMOVMSKPS and PDEP (eight bools at a
// time), and bool to float32 by VPMOVZXBD and VCVTDQ2PS.
var haveBoolVec = cpu.X86.HasAVX2 && cpu.X86.HasBMI2

//go:noescape
func f32sToBoolsAVX2(d *uint8, s *float32, n int)

//go:noescape
func boolsToF32sAVX2(d *float32, s *uint8, n int)

// f32sToBoolsVector converts the longest prefix of s that is a multiple of
// 32 elements and returns its length.
func f32sToBoolsVector(d []byte, s []float32) int {
	n := len(s) &^ 31
	if !haveBoolVec || n == 0 {
		return 0
	}
	_ = d[n-1]
	f32sToBoolsAVX2(&d[0], &s[0], n)
	return n
}

// boolsToF32sVector is f32sToBoolsVector the other way.
func boolsToF32sVector(d []float32, s []byte) int {
	n := len(s) &^ 31
	if !haveBoolVec || n == 0 {
		return 0
	}
	_ = d[n-1]
	boolsToF32sAVX2(&d[0], &s[0], n)
	return n
}

var haveAVX512DQ = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ

//go:noescape
func i32sToF32sAVX2(d, s unsafe.Pointer, n int)

//go:noescape
func f32sToI64sAVX512(d, s unsafe.Pointer, n int)

//go:noescape
func i64sToF32sAVX512(d, s unsafe.Pointer, n int)

// intFloatVector converts the longest prefix of s that is a multiple of
// 32 elements between float32 and int32 or int64 (int32 to float32,
// float32 to int64 as floatToInt, int64 to float32) where the processor
// can, and returns its length.
func intFloatVector[D, S int32 | int64 | float32](d []D, s []S) int {
	n := len(s) &^ 31
	if n == 0 {
		return 0
	}
	_ = d[n-1]
	dp, sp := unsafe.Pointer(&d[0]), unsafe.Pointer(&s[0])
	switch any(s).(type) {
	case []int32:
		if _, ok := any(d).([]float32); ok && haveAVX2 {
			i32sToF32sAVX2(dp, sp, n)
			return n
		}
	case []float32:
		if _, ok := any(d).([]int64); ok && haveAVX512DQ {
			f32sToI64sAVX512(dp, sp, n)
			return n
		}
	case []int64:
		if _, ok := any(d).([]float32); ok && haveAVX512DQ {
			i64sToF32sAVX512(dp, sp, n)
			return n
		}
	}
	return 0
}

//go:noescape
func i64sToI32sAVX2(d, s unsafe.Pointer, n int)

//go:noescape
func f32sToBF16sAVX2(d, s unsafe.Pointer, n int)

// i64sToI32sVector sets d[i] = int32(s[i]) (the low half) over the longest
// prefix of s that is a multiple of 32 elements, where the processor can,
// and returns its length.
func i64sToI32sVector(d []int32, s []int64) int {
	n := len(s) &^ 31
	if !haveAVX2 || n == 0 {
		return 0
	}
	_ = d[n-1]
	i64sToI32sAVX2(unsafe.Pointer(&d[0]), unsafe.Pointer(&s[0]), n)
	return n
}

// f32sToBF16sVector sets d[i] = F32ToBF16(s[i]) as i64sToI32sVector.
func f32sToBF16sVector(d []uint16, s []float32) int {
	n := len(s) &^ 31
	if !haveAVX2 || n == 0 {
		return 0
	}
	_ = d[n-1]
	f32sToBF16sAVX2(unsafe.Pointer(&d[0]), unsafe.Pointer(&s[0]), n)
	return n
}
