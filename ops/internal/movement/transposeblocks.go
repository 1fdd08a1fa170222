package movement

import "unsafe"

// The block kernels of the tiled transpose. Within a tile, a transpose of
// 4-byte elements moves 4x4 blocks and one of 8-byte elements 2x2 blocks:
// on amd64 each block is four (two) 16-byte loads, a shuffle in registers
// and four (two) 16-byte stores (transposeblocks_amd64.s), where element by
// element it takes sixteen (four) of each; the cache misses of the stores,
// which bound a transpose, then carry four times (twice) the data. Other
// platforms, and builds with the purego tag, run transposeBlocksGo, the
// same contract in Go.

// blockSide returns the side of the square blocks the kernels move for
// elements of size bytes, 0 when there is no kernel for that size.
func blockSide(size int) int {
	switch size {
	case 2:
		return 8
	case 4:
		return 4
	case 8:
		return 2
	}
	return 0
}

// transposeBlocksGo sets, for j < nj and i < ni (multiples of
// blockSide(size)), element i of row j of dst to element j of row i of src:
// rows are dRow and sRow bytes apart, elements size bytes.
func transposeBlocksGo(size int, dst, src unsafe.Pointer, dRow, sRow uintptr, nj, ni int) {
	for j := range nj {
		for i := range ni {
			d := unsafe.Add(dst, uintptr(j)*dRow+uintptr(i*size))
			s := unsafe.Add(src, uintptr(i)*sRow+uintptr(j*size))
			switch size {
			case 2:
				*(*uint16)(d) = *(*uint16)(s)
			case 4:
				*(*uint32)(d) = *(*uint32)(s)
			case 8:
				*(*uint64)(d) = *(*uint64)(s)
			}
		}
	}
}
