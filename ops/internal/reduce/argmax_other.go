//go:build !amd64 || purego

package reduce

// argColsF32 has no vector form here: RunArg's loop does every column.
func argColsF32(x []float32, n, inner int, out []int64, rows []int32, max, last bool) int { return 0 }

// argRowsF32 has no vector form here: RunArg's loop does every row.
func argRowsF32(x []float32, n int, idx []int64, ext []float32, max, last bool) bool { return false }
