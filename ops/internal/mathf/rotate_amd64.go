//go:build amd64 && !purego

package mathf

import "unsafe"

// rotateAVX is Rotate's loop (rotate_amd64.s, scripts/gen-rotate-asm.py)
// over n pairs, n a multiple of 4.
//
//go:noescape
func rotateAVX(y1, y2, x1, x2, cos, sin unsafe.Pointer, n int)

// rotateAVX512 is rotateAVX eight pairs at a time, n a multiple of 8.
//
//go:noescape
func rotateAVX512(y1, y2, x1, x2, cos, sin unsafe.Pointer, n int)

// rotateVec runs the vector loops over the longest prefix of whole vectors
// and returns its length (0 without AVX): eight pairs at a time with
// AVX-512, then four.
func rotateVec(y1, y2, a, b, cos, sin []float32) int {
	m := len(y1) &^ 3
	if !haveAVX2 || m == 0 {
		return 0
	}
	_, _, _, _, _ = y2[m-1], a[m-1], b[m-1], cos[m-1], sin[m-1]
	k := 0
	if m8 := m &^ 7; haveAVX512 && m8 > 0 {
		rotateAVX512(unsafe.Pointer(&y1[0]), unsafe.Pointer(&y2[0]), unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), unsafe.Pointer(&cos[0]), unsafe.Pointer(&sin[0]), m8)
		k = m8
	}
	if k < m {
		rotateAVX(unsafe.Pointer(&y1[k]), unsafe.Pointer(&y2[k]), unsafe.Pointer(&a[k]), unsafe.Pointer(&b[k]), unsafe.Pointer(&cos[k]), unsafe.Pointer(&sin[k]), m-k)
	}
	return m
}

//go:noescape
func rotateRowsAVX512(y, x, cos, sin unsafe.Pointer, rows, head, half int)

// rotateRowsVec is RotateRows's vector loop over all its rows, when the
// processor has AVX-512 and half is a multiple of 8; it reports whether
// it ran.
func rotateRowsVec(y, x, cos, sin []float32, rows, head, half int) bool {
	if !haveAVX512 || half%8 != 0 || half == 0 || rows == 0 || 2*half != head {
		return false
	}
	_, _ = y[rows*head-1], x[rows*head-1]
	_, _ = cos[rows*half-1], sin[rows*half-1]
	rotateRowsAVX512(unsafe.Pointer(&y[0]), unsafe.Pointer(&x[0]), unsafe.Pointer(&cos[0]), unsafe.Pointer(&sin[0]), rows, head, half)
	return true
}
