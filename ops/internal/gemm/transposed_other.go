//go:build !amd64 || purego

package gemm

// haveTransposed is false where kernelT32 is not: Float32PackedAT unpacks
// A and runs Float32Finish.
const haveTransposed = false

func tileT(rows, cols, kc int, a, b []float32, ldb int, ct []float32, flags int, c []float32, ldc int, idx *[16]int32, bias []float32, clamp *[2]float32, colBias []float32, pf uintptr) {
	panic("gemm: no transposed kernel")
}
