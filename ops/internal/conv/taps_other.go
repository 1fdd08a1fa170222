//go:build !amd64 || purego

package conv

// haveTapsKernel is false: the in-place windows need the AVX-512 kernel,
// so tapsPath is never taken and kernelTaps32 never called.
func haveTapsKernel() bool { return false }

func kernelTaps32(rows, k int, a *float32, lda int, b *float32, offs *int64, c *float32, ldc int, mask uint64, beta float32, bias *float32, clamp *[2]float32) {
}
