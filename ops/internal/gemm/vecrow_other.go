//go:build !amd64 || purego

package gemm

// vecRowKernels is false where there is no assembly: vecRow declines.
const vecRowKernels = false

func vecPanels32(g, k int, a, b *float32, ldb, pstride int, c *float32, beta float32) {
	panic("gemm: no row kernels")
}
