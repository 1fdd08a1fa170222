//go:build amd64 && !purego

package gemm

// haveTransposed says kernelT32 (transposed_amd64.s, written by go run
// ./asm/gen.go -transposed) runs here.
var haveTransposed = haveAVX512

//go:noescape
func kernelT32(rows, cols, kc int, a *float32, b *float32, ldb int, ct *float32, flags int, c *float32, ldc int, idx *[16]int32, bias *float32, clamp *[2]float32, colBias *float32, pf uintptr)

// tileT runs kernelT32 on a tile of rows <= 32 rows and 1 <= cols <= 12
// columns over a block of kc steps of k (flags: 1 the first block, 2 the
// last), checking that it stays inside the slices; pf is an address
// to prefetch from, a line a step (never dereferenced: a prefetch does not
// fault).
func tileT(rows, cols, kc int, a, b []float32, ldb int, ct []float32, flags int, c []float32, ldc int, idx *[16]int32, bias []float32, clamp *[2]float32, colBias []float32, pf uintptr) {
	_ = a[kc*mrT-1]
	_ = b[(kc-1)*ldb+cols-1]
	if flags != 3 {
		_ = ct[cols*mrT-1]
	}
	var bp, cp *float32
	if flags&2 != 0 {
		_ = c[(rows-1)*ldc+cols-1]
		bp, cp = finishPointers(rows, cols, bias, colBias)
	}
	kernelT32(rows, cols, kc, &a[0], &b[0], ldb, &ct[0], flags, &c[0], ldc, idx, bp, clamp, cp, pf)
}
