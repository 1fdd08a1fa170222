//go:build amd64 && !purego

package gemm

// vecRowKernels says the row kernels of vecrow_amd64.s are here (they run
// when the AVX-512 kernels do, kn.name "avx512").
const vecRowKernels = true

//go:noescape
func vecPanels32x8(k int, a *float32, b *float32, ldb, pstride int, c *float32, beta float32)

//go:noescape
func vecPanels32x4(k int, a *float32, b *float32, ldb, pstride int, c *float32, beta float32)

// vecPanels32 is C[:32*g] = a[:k] * (g panels of 32 columns, rows ldb
// apart, panels pstride apart) + beta*C, for g 8 or 4.
func vecPanels32(g, k int, a, b *float32, ldb, pstride int, c *float32, beta float32) {
	if g == 8 {
		vecPanels32x8(k, a, b, ldb, pstride, c, beta)
	} else {
		vecPanels32x4(k, a, b, ldb, pstride, c, beta)
	}
}
