//go:build !amd64 || purego

package gemm

// packBVector has no vector form here: packBI's Go loop does it all.
func packBVector(dst, src []byte, ldb, k4, cols int, flip byte, sums []int32) int { return 0 }
