//go:build amd64 && !purego

package gemm

import "golang.org/x/sys/cpu"

var havePackVNNI = haveVNNI && cpu.X86.HasAVX512VL

//go:noescape
func packB16VNNI(dst *byte, src *byte, ldb int, k4 int, flip uint32, sums *int32)

//go:noescape
func packB16AVX2(dst *byte, src *byte, ldb int, k4 int, flip uint32, sums *int32)

// packBVector packs the first whole sixteens of a panel's cols columns
// over k4 whole quads (packBI's layout, as packB16VNNI says) from src, row
// stride ldb, and returns how many columns it did: with AVX-512 VNNI or
// AVX2 as the 8-bit kernel in use, none with the Go one.
func packBVector(dst, src []byte, ldb, k4, cols int, flip byte, sums []int32) int {
	done := cols &^ 15
	pack := packB16VNNI
	switch {
	case kI.name == "vnni" && havePackVNNI:
	case kI.name == "avx2" && haveAVX2:
		pack = packB16AVX2
	default:
		return 0
	}
	if done == 0 || k4 == 0 {
		return 0
	}
	_ = src[(4*k4-1)*ldb+done-1]
	_ = dst[(k4-1)*nrI*4+done*4-1]
	_ = sums[done-1]
	for j := 0; j < done; j += 16 {
		pack(&dst[j*4], &src[j], ldb, k4, uint32(flip)*0x01010101, &sums[j])
	}
	return done
}
