//go:build !amd64 || purego

package gemm

// finishVector has no vector form here: finishB's Go loop does it all.
func finishVector(d []byte, k4 int, flip byte, col []int32) bool { return false }
