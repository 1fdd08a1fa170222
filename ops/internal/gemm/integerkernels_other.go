//go:build !amd64 || purego

package gemm

// directA is false here: the 8-bit kernel reads A from packed panels.
func directA() bool { return false }

func tileDirect(rows, k4 int, a []byte, lda int, b []byte, c []int32, ldc, cols int, add bool, init []int32) {
	panic("gemm: no in-place 8-bit kernel")
}
