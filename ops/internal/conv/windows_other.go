//go:build !amd64 || purego

package conv

import "unsafe"

// vecWindows is false: no vector window writer here.
var vecWindows = false

func windowRows32(dst []float32, dstStride int, src unsafe.Pointer, srcStride, rows int, segs []wseg) {
	panic("unreachable")
}
