//go:build amd64 && !purego

package reduce

import "golang.org/x/sys/cpu"

//go:noescape
func rowExtremesAVX512(x *float32, n, rows int, out *float32, min bool)

//go:noescape
func rowTermSumsAVX512(x *float32, n, rows int, sums *float32, square bool)

//go:noescape
func maxRowsAVX(acc, row *float32, n int, min bool)

//go:noescape
func addTermRowsAVX(acc, row *float32, n int, square bool)

// haveRowsAVX512 and haveColumnsAVX pick the vector loops of this file
// (tests turn them off to reach the scalar ones).
var haveRowsAVX512, haveColumnsAVX = cpu.X86.HasAVX512F, cpu.X86.HasAVX2

// rowExtremesF32 sets out[r] to reduceRow's Max (Min with min) of row r
// of the len(out) rows of n float32 of x, and reports whether it did
// (false: no vector loop here). Sixty-four lanes find the extreme; a row
// whose extreme is 0 (which of +0 and -0 comes first) or that holds a NaN
// (which NaN) is then walked by the scalar loop, which fixes those bits.
func rowExtremesF32(x []float32, n int, out []float32, min bool) bool {
	if !haveRowsAVX512 || len(out) == 0 || n == 0 {
		return false
	}
	_ = x[len(out)*n-1]
	rowExtremesAVX512(&x[0], n, len(out), &out[0], min)
	k := Max
	if min {
		k = Min
	}
	for r, m := range out {
		if m == 0 || m != m {
			out[r] = reduceRow(Op{Kind: k}, x[r*n:(r+1)*n])
		}
	}
	return true
}

// rowTermSumsF32 sets sums[r] to the sum in the lane order of |x| (x*x
// with square) over row r of the len(sums) rows of n float32 of x, bit
// for bit sumRowOf's, and reports whether it did.
func rowTermSumsF32(x []float32, n int, sums []float32, square bool) bool {
	if !haveRowsAVX512 || len(sums) == 0 || n == 0 {
		return false
	}
	_ = x[len(sums)*n-1]
	rowTermSumsAVX512(&x[0], n, len(sums), &sums[0], square)
	return true
}

// extremeRowF32 is reduceColumns's Max (Min with min) step over float32:
// acc[j] takes row[j] when row[j] is larger (smaller) or a NaN, unless
// acc[j] is a NaN already; sixteen at a time with AVX2.
func extremeRowF32(acc, row []float32, min bool) {
	n := len(acc) &^ 15
	if haveColumnsAVX && n > 0 {
		_ = row[n-1]
		maxRowsAVX(&acc[0], &row[0], n, min)
	}
	extremeRowTail(acc[n:], row[n:len(acc)], min)
}

// addTermRowF32 is acc[j] += |row[j]| (row[j]*row[j] with square),
// sixteen at a time with AVX2.
func addTermRowF32(acc, row []float32, square bool) {
	n := len(acc) &^ 15
	if haveColumnsAVX && n > 0 {
		_ = row[n-1]
		addTermRowsAVX(&acc[0], &row[0], n, square)
	}
	addTermRowTail(acc[n:], row[n:len(acc)], square)
}
