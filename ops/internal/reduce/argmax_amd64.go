//go:build amd64 && !purego

package reduce

import "golang.org/x/sys/cpu"

//go:generate python3 gen_argcols.py

// haveArgAVX2 and haveArgAVX512 pick argColsF32's vector loops (tests
// turn them off).
var haveArgAVX2, haveArgAVX512 = cpu.X86.HasAVX2, cpu.X86.HasAVX512F

//go:noescape
func argColsAVX2(x *float32, n, inner, cols int, idx *int32, minimum, last bool)

//go:noescape
func argColsAVX512(x *float32, n, inner, cols int, idx *int32, minimum, last bool)

// argColsF32 sets out[j] for the first of the w columns of the n rows
// of x (row i at x[i*stride:]), as RunArg's loop does, and returns how
// many it set (0 without AVX2): with AVX-512, 128 columns at a time (the
// best values and rows of a chunk in registers, each row's 512 bytes
// read in one go), then 16, then eight with AVX2. rows is scratch of w
// int32.
func argColsF32(x []float32, n, stride, w int, out []int64, rows []int32, max, last bool) int {
	if !haveArgAVX2 || w < 8 || n >= 1<<31 || n < 1 {
		return 0
	}
	_ = x[(n-1)*stride+w-1]
	cols := 0
	if haveArgAVX512 && w >= 16 {
		cols = w &^ 15
		argColsAVX512(&x[0], n, stride, cols, &rows[0], !max, last)
	}
	if w-cols >= 8 {
		argColsAVX2(&x[cols], n, stride, 8, &rows[cols], !max, last)
		cols += 8
	}
	for j, r := range rows[:cols] {
		out[j] = int64(r)
	}
	return cols
}

//go:noescape
func findF32AVX512(x *float32, n int, v float32) int

// argRowsF32 sets idx[r] to argBest of row r of the len(idx) rows of n
// float32 of x, and reports whether it did (false: no vector loop here).
// The rows' extremes come from rowExtremesAVX512, sixty-four lanes at a
// time, then the first element equal to its row's extreme (or the last,
// with last) is the index: equal as numbers, so of +0 and -0 the first
// that comes, as better keeps it. A row whose extreme is a NaN holds a
// NaN, and argBest walks it. ext is scratch of len(idx) float32.
func argRowsF32(x []float32, n int, idx []int64, ext []float32, max, last bool) bool {
	if !haveRowsAVX512 || len(idx) == 0 || n == 0 {
		return false
	}
	_ = x[len(idx)*n-1]
	ext = ext[:len(idx)]
	rowExtremesAVX512(&x[0], n, len(idx), &ext[0], !max)
	whole := n &^ 15
	for r, m := range ext {
		row := x[r*n : (r+1)*n]
		switch {
		case m != m:
			idx[r] = int64(argBest(row, max, last))
		case last:
			i := n - 1
			for row[i] != m {
				i--
			}
			idx[r] = int64(i)
		default:
			i := whole
			if whole > 0 {
				i = findF32AVX512(&row[0], whole, m)
			}
			for i < n && row[i] != m {
				i++
			}
			idx[r] = int64(i)
		}
	}
	return true
}

//go:noescape
func beyondF32AVX512(x *float32, n int, w float32, smallest bool) int

// beyondF32 is the first i >= from with !(x[i] <= w) (smallest: !(x[i] >=
// w)), or len(x): the next element TopK's heap has to look at, sixteen
// compared at a time where the processor has AVX-512.
func beyondF32(x []float32, from int, w float32, smallest bool) int {
	i := from
	if whole := (len(x) - from) &^ 15; haveRowsAVX512 && whole > 0 {
		i += beyondF32AVX512(&x[from], whole, w, smallest)
		if i < from+whole {
			return i
		}
	}
	for ; i < len(x); i++ {
		if v := x[i]; smallest && !(v >= w) || !smallest && !(v <= w) {
			return i
		}
	}
	return i
}
