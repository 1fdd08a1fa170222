//go:build !amd64 || purego

package ops

import "unsafe"

// transposeBlocks is transposeBlocksGo where there is no assembly kernel.
func transposeBlocks(size int, dst, src unsafe.Pointer, dRow, sRow uintptr, nj, ni int) {
	transposeBlocksGo(size, dst, src, dRow, sRow, nj, ni)
}
