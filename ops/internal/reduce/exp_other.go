//go:build !amd64 || purego

package reduce

import "math"

// expShiftedRow sets dst[i] to float32(math.Exp(float64(src[i] - m))).
func expShiftedRow(dst, src []float32, m float32) {
	dst = dst[:len(src)]
	for i, v := range src {
		dst[i] = float32(math.Exp(float64(v - m)))
	}
}

// rowMax is reduceRow's Max of a float32 row.
func rowMax(x []float32) float32 { return reduceRow(Op{Kind: Max}, x) }

// divideRow sets y[i] to y[i] / s.
func divideRow(y []float32, s float32) {
	for i := range y {
		y[i] /= s
	}
}

// expShiftedEach sets dst[i] to float32(math.Exp(float64(src[i] - m[i]))).
func expShiftedEach(dst, src, m []float32) {
	dst, m = dst[:len(src)], m[:len(src)]
	for i, v := range src {
		dst[i] = float32(math.Exp(float64(v - m[i])))
	}
}
