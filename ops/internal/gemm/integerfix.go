package gemm

// The zero-point correction of the 8-bit product (integer.go), row by
// row: C[i][j] += zb'_j*t_i - za'_i*colB'_j with t_i = k*za'_i - rowA'_i,
// in int32 (wrapping, a ring identity). zeroFixVector (AVX2 on amd64)
// does the longest prefix it can, eight columns at a time; zeroFixGo the
// rest, and everything under purego and elsewhere.

// zeroFix applies the correction to one row of C.
func zeroFix(row, zb, colB []int32, t, za int32) {
	n := zeroFixVector(row, zb, colB, t, za)
	zeroFixGo(row[n:], zb[n:], colB[n:], t, za)
}

func zeroFixGo(row, zb, colB []int32, t, za int32) {
	zb, colB = zb[:len(row)], colB[:len(row)]
	for j := range row {
		row[j] += zb[j]*t - za*colB[j]
	}
}

// rowSumsNeeded reports whether the product needs A's row sums: only a
// column whose shifted zero point zb' is not 0 reads them (B signed with
// zero point 0, the symmetric weights of onnxruntime's quantizer, needs
// none).
func rowSumsNeeded(bZero []int32, shiftB int32) bool {
	for _, z := range bZero {
		if z+shiftB != 0 {
			return true
		}
	}
	return len(bZero) == 0 && shiftB != 0
}
