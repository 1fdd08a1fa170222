//go:build !amd64 || purego

package conv

import "unsafe"

// vecWindows and vecWindows2 are false: no vector window writer here.
var (
	vecWindows  = false
	vecWindows2 = false
)

func windowRows32(dst []float32, dstStride int, src unsafe.Pointer, srcStride, rows int, segs []wseg, stride int) {
	panic("unreachable")
}
