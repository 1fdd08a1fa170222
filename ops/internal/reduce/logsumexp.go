package reduce

import "math"

// The float32 paths of LogSumExp, the reference engine's algorithm
// (reference/reducelogsumexp.go, where its error bound is stated): m the
// largest element of an output's elements, the terms exp32(x - m) (the
// softmax family's exponential, exp.go) summed in the lane order, and
// float64(m) + log(float64(sum)) rounded once. The exponentials run
// sixteen at a time in the vector kernels of expShifted, which give
// exp32's bits; an output whose m is not finite takes the plain loops
// (its result is m, or NaN).

// logSumExpRowsF32 sets out[r] to the LogSumExp of row r of the len(out)
// rows of n float32 of x (n > 0), buf scratch of n float32: the maxima of
// the rows first (rowExtremesF32, a block of rows in one call), then each
// row's exponentials and their sum in one pass.
func logSumExpRowsF32(x []float32, n int, out, buf []float32) {
	if !rowExtremesF32(x, n, out, false) {
		for r := range out {
			out[r] = rowMax(x[r*n : (r+1)*n])
		}
	}
	op := Op{Kind: LogSumExp}
	for r, m := range out {
		row := x[r*n : (r+1)*n]
		if math.IsInf(float64(m), 0) || m != m {
			out[r] = reduceRow(op, row)
			continue
		}
		out[r] = finish(op, expShiftedRow(buf, row, m), m, n)
	}
}

// logSumExpColumnsF32 is reduceColumns's LogSumExp step over float32 once
// m holds the largest element of each column: out[j] the LogSumExp of
// column c0+j of the n rows of an [n, inner] block, parts scratch of
// lanes*len(out) (the sixteen rows of partial sums, as sumColumnsOf). Each
// row's exponentials go to a buffer sixteen at a time, then into its
// lane's row of partials.
func logSumExpColumnsF32(in []float32, n, inner, c0 int, out, m, parts []float32) {
	w := len(out)
	var buf [columnBlock]float32
	e := buf[:w]
	finite := true
	for _, v := range m {
		if math.IsInf(float64(v), 0) || v != v {
			finite = false
			break
		}
	}
	parts = parts[:min(n, lanes)*w]
	clear(parts[:min(n, lanes)*w])
	for i := range n {
		row := in[i*inner+c0 : i*inner+c0+w]
		if finite {
			expShiftedEachFinite(e, row, m)
		} else {
			// A column of -inf only, or with +inf or a NaN: its result
			// is m whatever its sum (finish), so any term does.
			for j, v := range row {
				e[j] = 0
				if mj := m[j]; !math.IsInf(float64(mj), 0) && mj == mj {
					e[j] = exp32(v - mj)
				}
			}
		}
		addRowF32(parts[(i%lanes)*w:(i%lanes+1)*w], e)
	}
	foldParts(parts, w, n, out)
	op := Op{Kind: LogSumExp}
	for j := range out {
		out[j] = finish(op, out[j], m[j], n)
	}
}
