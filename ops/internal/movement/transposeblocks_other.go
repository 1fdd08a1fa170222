//go:build !amd64 || purego

package movement

import "unsafe"

// transposeBlocks is transposeBlocksGo where there is no assembly kernel
// (and so no prefetch and no streaming stores).
func transposeBlocks(size int, dst, src unsafe.Pointer, dRow, sRow uintptr, nj, ni int, pf uintptr, stream bool) {
	transposeBlocksGo(size, dst, src, dRow, sRow, nj, ni)
}

// deinterleave2 leaves the pairs to the caller's loop where there is no
// assembly kernel.
func deinterleave2(d0, d1, src unsafe.Pointer, n int, stream bool) int { return 0 }

// pickEven leaves every element to the caller's loop where there is no
// assembly kernel.
func pickEven(dst, src unsafe.Pointer, n int) int { return 0 }
