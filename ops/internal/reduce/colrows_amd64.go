//go:build amd64 && !purego

package reduce

//go:generate python3 gen_colrows.py

//go:noescape
func colMaxRowsAVX512(x *float32, n, stride, w int, out *float32) (nan bool)

//go:noescape
func colMinRowsAVX512(x *float32, n, stride, w int, out *float32) (nan bool)

// rowStreams is the fewest rows from which colExtremesF32 reads the rows
// one after the other (colrows_amd64.s) rather than walking down all of
// them at once in registers: a few dozen rows far apart are more streams
// than a core's prefetchers follow. Benchmarks raise it to measure the
// walk down.
var rowStreams = 32

// colExtremesRowsF32 is colExtremesF32 row after row, the maxima (minima
// with min) in out, for n >= rowStreams: it returns how many columns
// (len(out) &^ 15) it did, 0 when a NaN is among them.
func colExtremesRowsF32(x []float32, n, stride int, out []float32, min bool) int {
	w := len(out) &^ 15
	if w == 0 {
		return 0
	}
	_ = x[(n-1)*stride+w-1]
	kernel := colMaxRowsAVX512
	if min {
		kernel = colMinRowsAVX512
	}
	if kernel(&x[0], n, stride, w, &out[0]) {
		return 0
	}
	return w
}
