//go:build amd64 && !purego

package reduce

import "golang.org/x/sys/cpu"

// rowSumsF32 sets sums[r] to the sum, in the lane order, of row r of the
// len(sums) rows of n float32 of x, divided by float32(n) when mean is set:
// each row is one sixteen-lane vector accumulator (two of eight with AVX2),
// the tail masked with +0, then the lane tree, as sumRow does one element
// at a time.
func rowSumsF32(x []float32, n int, sums []float32, mean bool) {
	rows := len(sums)
	if rows == 0 || n == 0 {
		for r := range sums {
			sums[r] = meanOf(0, n, mean)
		}
		return
	}
	_ = x[rows*n-1]
	switch {
	case haveSumAVX512:
		rowSumsAVX512(&x[0], n, rows, &sums[0])
	case haveSumAVX2:
		rowSumsAVX2(&x[0], n, rows, &sums[0], &tailMasks)
	default:
		for r := range sums {
			sums[r] = meanOf(sumRow(x[r*n:(r+1)*n]), n, mean)
		}
		return
	}
	if mean {
		divideRow(sums, float32(n))
	}
}

// haveSumAVX512 and haveSumAVX2 pick rowSumsF32's kernel (tests turn them
// off to reach the others).
var haveSumAVX512, haveSumAVX2 = cpu.X86.HasAVX512F, cpu.X86.HasAVX2

// tailMasks is sixteen all-ones int32 then sixteen zeros: the sixteen
// int32 from index 16-t are the masks of a tail of t elements.
var tailMasks = [32]int32{-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1}

//go:noescape
func rowSumsAVX512(x *float32, n, rows int, sums *float32)

//go:noescape
func rowSumsAVX2(x *float32, n, rows int, sums *float32, masks *[32]int32)

// haveAddAVX picks addRowF32's vector loop.
var haveAddAVX = cpu.X86.HasAVX

//go:noescape
func addRowsAVX(acc, row *float32, n int)

// addRowF32 is addRow for float32: acc[j] += row[j], thirty-two at a time
// where the processor has AVX (each element's addition is the same one).
func addRowF32(acc, row []float32) {
	n := len(acc) &^ 31
	if haveAddAVX && n > 0 {
		_ = row[n-1]
		addRowsAVX(&acc[0], &row[0], n)
	}
	row = row[:len(acc)]
	for j := n; j < len(acc); j++ {
		acc[j] += row[j]
	}
}

// haveColSumsAVX512 picks colSumsF32's kernel (tests turn it off).
var haveColSumsAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ

//go:noescape
func colSumsAVX512(x *float32, n, stride, w int, out *float32)

// colSumsF32 sets out[j] to the sum in the lane order of x[i*stride+j]
// over the n rows i, for the first len(out) &^ 31 columns, straight from
// the rows with the sixteen partial rows of thirty-two columns in
// registers, and returns how many columns it did (0 without AVX-512).
func colSumsF32(x []float32, n, stride int, out []float32) int {
	w := len(out) &^ 31
	if !haveColSumsAVX512 || w == 0 || n == 0 {
		return 0
	}
	_ = x[(n-1)*stride+w-1]
	colSumsAVX512(&x[0], n, stride, w, &out[0])
	return w
}

//go:noescape
func colSquareSumsAVX512(x *float32, n, stride, w int, out *float32)

//go:noescape
func colAbsSumsAVX512(x *float32, n, stride, w int, out *float32)

// colTermSumsF32 is colSumsF32 with the term x*x (square) or |x| of
// sumColumnsTerm, sixteen columns at a time: it returns how many columns
// (len(out) &^ 15, or 0 without AVX-512) it did.
func colTermSumsF32(x []float32, n, stride int, out []float32, square bool) int {
	w := len(out) &^ 15
	if !haveColSumsAVX512 || w == 0 || n == 0 {
		return 0
	}
	_ = x[(n-1)*stride+w-1]
	if square {
		colSquareSumsAVX512(&x[0], n, stride, w, &out[0])
	} else {
		colAbsSumsAVX512(&x[0], n, stride, w, &out[0])
	}
	return w
}
