//go:build amd64 && !purego

package movement

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// transposeBlocks runs the SSE2 kernel of the element size (SSE2 is part
// of every amd64 processor); the contract is transposeBlocksGo's. The
// kernel prefetches the source pf bytes ahead of each block, and with
// stream writes with streaming stores (see stream.go) when dst and dRow
// allow them (multiples of 16).
func transposeBlocks(size int, dst, src unsafe.Pointer, dRow, sRow uintptr, nj, ni int, pf uintptr, stream bool) {
	if nj <= 0 || ni <= 0 {
		return
	}
	stream = stream && uintptr(dst)%16 == 0 && dRow%16 == 0
	switch size {
	case 2:
		transpose8x8(dst, src, dRow, sRow, nj, ni, pf, stream)
	case 4:
		transpose4x4(dst, src, dRow, sRow, nj, ni, pf, stream)
	case 8:
		transpose2x2(dst, src, dRow, sRow, nj, ni, pf, stream)
	default:
		transposeBlocksGo(size, dst, src, dRow, sRow, nj, ni)
	}
}

// transpose8x8 is transposeBlocksGo for 2-byte elements, nj and ni
// positive multiples of 8.
//
//go:noescape
func transpose8x8(dst, src unsafe.Pointer, dRow, sRow uintptr, nj, ni int, pf uintptr, stream bool)

// transpose4x4 is transposeBlocksGo for 4-byte elements, nj and ni
// positive multiples of 4.
//
//go:noescape
func transpose4x4(dst, src unsafe.Pointer, dRow, sRow uintptr, nj, ni int, pf uintptr, stream bool)

// transpose2x2 is transposeBlocksGo for 8-byte elements, nj and ni
// positive multiples of 2.
//
//go:noescape
func transpose2x2(dst, src unsafe.Pointer, dRow, sRow uintptr, nj, ni int, pf uintptr, stream bool)

// deinterleave2 splits the first n - n%4 of n pairs of 4-byte elements at
// src into two rows, d0 the first of each pair and d1 the second, in SSE
// registers, and returns how many pairs it split; the caller does the rest.
// With stream, and both rows on 16 bytes, it writes with streaming stores.
func deinterleave2(d0, d1, src unsafe.Pointer, n int, stream bool) int {
	m := n &^ 3
	if m > 0 {
		stream = stream && uintptr(d0)%16 == 0 && uintptr(d1)%16 == 0
		deinterleave2x4(d0, d1, src, m, stream)
	}
	return m
}

//go:noescape
func deinterleave2x4(d0, d1, src unsafe.Pointer, n int, stream bool)

// pickEven copies element 2i of src to element i of dst (4-byte elements)
// in vector registers for the first (n-1) &^ 3 of n elements, and returns
// how many it copied; the caller does the rest. It reads no further than
// the last element it was asked for, 2(n-1).
func pickEven(dst, src unsafe.Pointer, n int) int {
	m := (n - 1) &^ 3
	if m > 0 {
		pickEven4(dst, src, m, haveAVX2)
	}
	return m
}

// haveAVX2 lets pickEven4 take eight elements at a time.
var haveAVX2 = cpu.X86.HasAVX2

//go:noescape
func pickEven4(dst, src unsafe.Pointer, n int, avx2 bool)
