//go:build !amd64 || purego

package reduce

// argColsF32 has no vector form here: RunArg's loop does every column.
func argColsF32(x []float32, n, inner int, out []int64, rows []int32, max, last bool) int { return 0 }
