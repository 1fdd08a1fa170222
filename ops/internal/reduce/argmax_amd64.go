//go:build amd64 && !purego

package reduce

import "golang.org/x/sys/cpu"

// haveArgAVX2 picks argColsF32's vector loop (tests turn it off).
var haveArgAVX2 = cpu.X86.HasAVX2

//go:noescape
func argColsAVX2(x *float32, n, inner, cols int, idx *int32, minimum, last bool)

// argColsF32 sets out[j] for the first columns of the [n, inner] block x,
// eight at a time, as RunArg's loop does, and returns how many it set (a
// multiple of 8; 0 without AVX2). rows is scratch of inner int32.
func argColsF32(x []float32, n, inner int, out []int64, rows []int32, max, last bool) int {
	cols := inner &^ 7
	if !haveArgAVX2 || cols == 0 || n >= 1<<31 || n < 1 {
		return 0
	}
	_ = x[n*inner-1]
	argColsAVX2(&x[0], n, inner, cols, &rows[0], !max, last)
	for j, r := range rows[:cols] {
		out[j] = int64(r)
	}
	return cols
}
