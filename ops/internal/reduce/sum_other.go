//go:build !amd64 || purego

package reduce

// rowSumsF32 sets sums[r] to the sum, in the lane order, of row r of the
// len(sums) rows of n float32 of x, divided by float32(n) when mean is set.
func rowSumsF32(x []float32, n int, sums []float32, mean bool) {
	for r := range sums {
		sums[r] = meanOf(sumRow(x[r*n:(r+1)*n]), n, mean)
	}
}

// addRowF32 is addRow for float32.
func addRowF32(acc, row []float32) {
	row = row[:len(acc)]
	for j, v := range row {
		acc[j] += v
	}
}

// colSumsF32 has no vector kernel here: it does no column.
func colSumsF32(x []float32, n, stride int, out []float32) int { return 0 }

// haveColSumsAVX512 is false: there is no kernel to turn off.
var haveColSumsAVX512 = false

// colTermSumsF32 has no vector kernel here: it does no column.
func colTermSumsF32(x []float32, n, stride int, out []float32, square bool) int { return 0 }

// colExtremesF32 has no vector kernel here: it does no column.
func colExtremesF32(x []float32, n, stride int, out []float32, min bool) int { return 0 }

// colProdsF32 has no vector kernel here: it does no column.
func colProdsF32(x []float32, n, stride int, out []float32) int { return 0 }
