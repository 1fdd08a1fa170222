//go:build amd64 && !purego

package conv

import "unsafe"

// addRows32AVX2 adds b[i] to the n elements of row i (ld apart from y)
// for rows rows, eight lanes at a time: the same bits as the scalar add.
//
//go:noescape
func addRows32AVX2(y *float32, n, ld, rows int, b *float32)

// addRows32 adds b[i] to yg[i*ld : i*ld+n] for each i of b, with the
// vector add when there is one; false when there is none.
func addRows32(yg []float32, b []float32, ld, n int) bool {
	if !haveAVX2 || len(b) == 0 || n == 0 {
		return haveAVX2
	}
	_ = yg[(len(b)-1)*ld+n-1]
	addRows32AVX2(unsafe.SliceData(yg), n, ld, len(b), unsafe.SliceData(b))
	return true
}
