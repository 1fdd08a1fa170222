//go:build !amd64 || purego

package reduce

// argColsF32 has no vector form here: RunArg's loop does every column.
func argColsF32(x []float32, n, stride, w int, out []int64, rows []int32, max, last bool) int {
	return 0
}

// argRowsF32 has no vector form here: RunArg's loop does every row.
func argRowsF32(x []float32, n int, idx []int64, ext []float32, max, last bool) bool { return false }

// beyondF32 is the first i >= from with !(x[i] <= w) (smallest: !(x[i] >=
// w)), or len(x).
func beyondF32(x []float32, from int, w float32, smallest bool) int {
	i := from
	for ; i < len(x); i++ {
		if v := x[i]; smallest && !(v >= w) || !smallest && !(v <= w) {
			return i
		}
	}
	return i
}

// haveArgAVX512 is false: there is no vector loop to turn off.
var haveArgAVX512 = false
