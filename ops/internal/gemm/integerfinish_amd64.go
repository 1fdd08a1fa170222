//go:build amd64 && !purego

package gemm

//go:noescape
func finish32VNNI(dst *byte, k4 int, flip uint32, sums *int32)

// finishVector does finishB's flip and column sums for one full panel of
// nrI columns (AVX-512 VNNI); false when this CPU has no such kernel.
func finishVector(d []byte, k4 int, flip byte, col []int32) bool {
	if !havePackVNNI || k4 == 0 {
		return false
	}
	_ = d[k4*nrI*4-1]
	_ = col[nrI-1]
	finish32VNNI(&d[0], k4, uint32(flip)*0x01010101, &col[0])
	return true
}
