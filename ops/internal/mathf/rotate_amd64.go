//go:build amd64 && !purego

package mathf

import "unsafe"

// rotateAVX is Rotate's loop (rotate_amd64.s, scripts/gen-rotate-asm.py)
// over n pairs, n a multiple of 4.
//
//go:noescape
func rotateAVX(y1, y2, x1, x2, cos, sin unsafe.Pointer, n int)

// rotateVec runs the vector loop over the longest prefix of whole vectors
// and returns its length (0 without AVX).
func rotateVec(y1, y2, a, b, cos, sin []float32) int {
	m := len(y1) &^ 3
	if !haveAVX2 || m == 0 {
		return 0
	}
	_, _, _, _, _ = y2[m-1], a[m-1], b[m-1], cos[m-1], sin[m-1]
	rotateAVX(unsafe.Pointer(&y1[0]), unsafe.Pointer(&y2[0]), unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), unsafe.Pointer(&cos[0]), unsafe.Pointer(&sin[0]), m)
	return m
}
