//go:build amd64 && !purego

package rnn

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// haveAVX reports a processor (and an operating system) with AVX, which
// the loops of cell_amd64.s need.
var haveAVX = cpu.X86.HasAVX

// lstmStateAVX is lstmState's loop (cell_amd64.s)
// over n elements, n a multiple of 8.
//
//go:noescape
func lstmStateAVX(c, gc, gf, gi unsafe.Pointer, n int)

// mulAVX is mulTo's loop over n elements, n a multiple of 8.
//
//go:noescape
func mulAVX(o, a, b unsafe.Pointer, n int)

// lstmStateVec runs lstmStateAVX over the longest prefix of whole vectors
// and returns its length (0 without AVX).
func lstmStateVec(c, g, f, i []float32) int {
	m := len(c) &^ 7
	if !haveAVX || m == 0 {
		return 0
	}
	_, _, _ = g[m-1], f[m-1], i[m-1]
	lstmStateAVX(unsafe.Pointer(&c[0]), unsafe.Pointer(&g[0]), unsafe.Pointer(&f[0]), unsafe.Pointer(&i[0]), m)
	return m
}

// mulVec runs mulAVX over the longest prefix of whole vectors and returns
// its length (0 without AVX).
func mulVec(o, a, b []float32) int {
	m := len(o) &^ 7
	if !haveAVX || m == 0 {
		return 0
	}
	_, _ = a[m-1], b[m-1]
	mulAVX(unsafe.Pointer(&o[0]), unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), m)
	return m
}
