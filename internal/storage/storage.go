// Package storage allocates the element storage of tensors: 8-byte aligned,
// as every element type (and the vector loads of the kernels) needs. The
// tensor constructors, the model runner's spares and graph.Pool share it.
package storage

import (
	"sync/atomic"
	"unsafe"
)

// Aligned returns n zeroed bytes whose first is 8-byte aligned; n == 0
// gives an empty, non-nil slice.
func Aligned(n int) []byte {
	if n == 0 {
		return []byte{}
	}
	words := make([]uint64, (n-1)/8+1)
	return unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), n)
}

// PoisonRecycled, when set (by tests only), has Recycled fill the storage
// it is given with a pattern no kernel output is likely to hold, so that a
// kernel that relies on fresh storage being zero fails its tests.
var PoisonRecycled atomic.Bool

// Recycled is told of storage handed out again (a run's spare, a Pool's
// free storage) before a kernel receives it.
func Recycled(b []byte) {
	if PoisonRecycled.Load() {
		for i := range b {
			b[i] = 0xA5
		}
	}
}
