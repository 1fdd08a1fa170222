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

// sumRowsF32 sets sums[r] to the sum of row r of the len(sums) rows of n
// float32 of x, added from 0 in index order.
func sumRowsF32(x []float32, n int, sums []float32) {
	for r := range sums {
		var s float32
		for _, v := range x[r*n : (r+1)*n] {
			s += v
		}
		sums[r] = s
	}
}

// expShiftedEach sets dst[i] to float32(math.Exp(float64(src[i] - m[i]))).
func expShiftedEach(dst, src, m []float32) {
	dst, m = dst[:len(src)], m[:len(src)]
	for i, v := range src {
		dst[i] = float32(math.Exp(float64(v - m[i])))
	}
}
