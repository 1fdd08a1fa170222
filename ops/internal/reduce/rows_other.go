//go:build !amd64 || purego

package reduce

// haveRowsAVX512 is false here: there are only the Go loops.
var haveRowsAVX512 = false

func rowExtremesF32(x []float32, n int, out []float32, min bool) bool { return false }

func rowTermSumsF32(x []float32, n int, sums []float32, square bool) bool { return false }

// extremeRowF32 is reduceColumns's Max (Min with min) step over float32.
func extremeRowF32(acc, row []float32, min bool) { extremeRowTail(acc, row[:len(acc)], min) }

// addTermRowF32 is acc[j] += |row[j]| (row[j]*row[j] with square).
func addTermRowF32(acc, row []float32, square bool) { addTermRowTail(acc, row[:len(acc)], square) }
