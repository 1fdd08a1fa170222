//go:build amd64 && !purego

package convert

import "golang.org/x/sys/cpu"

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
