//go:build amd64 && !purego

package resample

import "unsafe"

// combineTwoRowsF32 does resizeCombineTwoRows's work for float32 on the
// longest prefix of the rows that is a multiple of 4, in SSE registers
// (rows_amd64.s), and returns its length; the caller does the rest.
func combineTwoRowsF32(d0, d1, r0, r1, w []float32) int {
	n := len(d0) &^ 3
	if n == 0 || len(d1) < n || len(r0) < n || len(r1) < n || len(w) < 4 {
		return 0
	}
	combineTwoRows4(&d0[0], &d1[0], &r0[0], &r1[0], n, (*[4]float32)(w))
	return n
}

// combineRowsF32 does resizeCombineRows's work for float32 with two or
// four rows on the longest prefix that is a multiple of 4, in SSE
// registers, and returns its length (0 for other numbers of rows).
func combineRowsF32(d []float32, rows [][]float32, w []float32) int {
	n := len(d) &^ 3
	if n == 0 || len(w) < len(rows) {
		return 0
	}
	for _, r := range rows {
		if len(r) < n {
			return 0
		}
	}
	switch len(rows) {
	case 2:
		combineRows2(&d[0], &rows[0][0], &rows[1][0], n, (*[2]float32)(w))
	case 4:
		combineRows4(&d[0], &rows[0][0], &rows[1][0], &rows[2][0], &rows[3][0], n, (*[4]float32)(w))
	default:
		return 0
	}
	return n
}

//go:noescape
func combineRows2(d, r0, r1 *float32, n int, w *[2]float32)

//go:noescape
func combineRows4(d, r0, r1, r2, r3 *float32, n int, w *[4]float32)

//go:noescape
func combineTwoRows4(d0, d1, r0, r1 *float32, n int, w *[4]float32)

// twoTapPairsF32 does the work of a uniform float32 filter of two taps whose
// outputs come in pairs, each pair from the next input (linear Resize by 2),
// for the first n &^ 3 of n pairs, in SSE registers, and returns how many
// it did; the caller does the rest. dp receives the pairs, sp holds the
// inputs (it reads n+1 of them at most, as the Go loop does), w the
// weights of the even and the odd output.
func twoTapPairsF32(dp, sp unsafe.Pointer, n int, w *[4]float32) int {
	m := n &^ 3
	if m > 0 {
		twoTapPairs4((*float32)(dp), (*float32)(sp), m, w)
	}
	return m
}

//go:noescape
func twoTapPairs4(d, s *float32, n int, w *[4]float32)

// fourTapsStep2F32 does the work of a uniform float32 filter of four taps
// at a step of two inputs (linear antialiased Resize by 1/2) for the first
// n &^ 3 of n outputs, in SSE registers, and returns how many it did; the
// caller does the rest. dp receives the outputs, sp holds the inputs (it
// reads 2n+2 of them at most, as the Go loop does), w the weights.
func fourTapsStep2F32(dp, sp unsafe.Pointer, n int, w *[4]float32) int {
	m := n &^ 3
	if m > 0 {
		fourTapsStep2x4((*float32)(dp), (*float32)(sp), m, w)
	}
	return m
}

//go:noescape
func fourTapsStep2x4(d, s *float32, n int, w *[4]float32)
