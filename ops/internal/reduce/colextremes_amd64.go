//go:build amd64 && !purego

package reduce

//go:generate python3 gen_colextremes.py

//go:noescape
func colMaxAVX512(x *float32, n, stride, w int, out *float32) (nan bool)

//go:noescape
func colMinAVX512(x *float32, n, stride, w int, out *float32) (nan bool)

//go:noescape
func colProdsAVX512(x *float32, n, stride, w int, out *float32)

// colExtremesF32 sets out[j] to the maximum (minimum with min) of
// x[i*stride+j] over the n rows i, as extremeRowTail's walk from -Inf (+Inf)
// gives it, for the first len(out) &^ 127 columns, the accumulators in
// registers, and returns how many columns it did: 0 without AVX-512 or
// when a NaN is among them (the caller's loop then does them all). From
// rowStreams rows it streams the rows one after the other instead, and
// does the first len(out) &^ 15 columns.
func colExtremesF32(x []float32, n, stride int, out []float32, min bool) int {
	if haveColSumsAVX512 && n >= rowStreams {
		return colExtremesRowsF32(x, n, stride, out, min)
	}
	w := len(out) &^ 127
	if !haveColSumsAVX512 || w == 0 || n == 0 {
		return 0
	}
	_ = x[(n-1)*stride+w-1]
	kernel := colMaxAVX512
	if min {
		kernel = colMinAVX512
	}
	if kernel(&x[0], n, stride, w, &out[0]) {
		return 0
	}
	return w
}

// colProdsF32 sets out[j] to the product 1*x[j]*x[stride+j]... over the n
// rows in row order, for the first len(out) &^ 127 columns, and returns
// how many columns it did (0 without AVX-512).
func colProdsF32(x []float32, n, stride int, out []float32) int {
	w := len(out) &^ 127
	if !haveColSumsAVX512 || w == 0 || n == 0 {
		return 0
	}
	_ = x[(n-1)*stride+w-1]
	colProdsAVX512(&x[0], n, stride, w, &out[0])
	return w
}
