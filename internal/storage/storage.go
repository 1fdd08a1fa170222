// Package storage allocates the element storage of tensors: 8-byte aligned,
// as every element type (and the vector loads of the kernels) needs. The
// tensor constructors, the model runner's spares and graph.Pool share it.
package storage

import "unsafe"

// Aligned returns n zeroed bytes whose first is 8-byte aligned; n == 0
// gives an empty, non-nil slice.
func Aligned(n int) []byte {
	if n == 0 {
		return []byte{}
	}
	words := make([]uint64, (n-1)/8+1)
	return unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), n)
}
