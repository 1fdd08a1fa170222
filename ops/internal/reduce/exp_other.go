//go:build !amd64 || purego

package reduce

// expShifted is expShiftedGo: there is no vector kernel here.
func expShifted(dst, src, m []float32, perElement bool) float32 {
	return expShiftedGo(dst, src, m, perElement)
}

// expShiftedEachFinite is expShiftedEach for m all finite.
func expShiftedEachFinite(dst, src, m []float32) { expShiftedGo(dst, src, m, true) }

// rowMax is reduceRow's Max of a float32 row.
func rowMax(x []float32) float32 { return reduceRow(Op{Kind: Max}, x) }

// divideRow sets y[i] to y[i] / s.
func divideRow(y []float32, s float32) {
	for i := range y {
		y[i] /= s
	}
}

// softmaxRowsF32 writes the Softmax of the rows of n float32 of x to y,
// each by softmaxRowF32.
func softmaxRowsF32(x, y []float32, n int, _ bool) {
	for r := range len(x) / n {
		softmaxRowF32(Softmax, x[r*n:(r+1)*n], y[r*n:(r+1)*n])
	}
}

// logShiftRow sets y[i] to (x[i] - m) - ls.
func logShiftRow(x, y []float32, m, ls float32) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] = (v - m) - ls
	}
}

// logSoftmaxRowsF32 writes the LogSoftmax of the rows of n float32 of x
// to y, each by softmaxRowF32.
func logSoftmaxRowsF32(x, y []float32, n int, _ bool) {
	for r := range len(x) / n {
		softmaxRowF32(LogSoftmax, x[r*n:(r+1)*n], y[r*n:(r+1)*n])
	}
}
