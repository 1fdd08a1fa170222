//go:build amd64 && !purego

package ops

// combineTwoRowsF32 does resizeCombineTwoRows's work for float32 on the
// longest prefix of the rows that is a multiple of 4, in SSE registers
// (resizerows_amd64.s), and returns its length; the caller does the rest.
func combineTwoRowsF32(d0, d1, r0, r1, w []float32) int {
	n := len(d0) &^ 3
	if n == 0 || len(d1) < n || len(r0) < n || len(r1) < n || len(w) < 4 {
		return 0
	}
	combineTwoRows4(&d0[0], &d1[0], &r0[0], &r1[0], n, (*[4]float32)(w))
	return n
}

//go:noescape
func combineTwoRows4(d0, d1, r0, r1 *float32, n int, w *[4]float32)
