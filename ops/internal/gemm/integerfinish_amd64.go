//go:build amd64 && !purego

package gemm

//go:noescape
func finish32VNNI(dst *byte, k4 int, flip uint32, sums *int32)

//go:noescape
func finish32AVX2(dst *byte, k4 int, flip uint32, sums *int32)

// finishVector does finishB's flip and column sums for one full panel of
// nrI columns with the instructions of the 8-bit kernel in use (AVX-512
// VNNI or AVX2); false when it is the Go one.
func finishVector(d []byte, k4 int, flip byte, col []int32) bool {
	if k4 == 0 {
		return false
	}
	_ = d[k4*nrI*4-1]
	_ = col[nrI-1]
	switch {
	case kI.name == "vnni" && haveVNNI:
		finish32VNNI(&d[0], k4, uint32(flip)*0x01010101, &col[0])
	case kI.name == "avx2" && haveAVX2:
		finish32AVX2(&d[0], k4, uint32(flip)*0x01010101, &col[0])
	default:
		return false
	}
	return true
}
