//go:build !amd64 || purego

package conv

import "unsafe"

// rows4Taps32 has no vector kernel here: the caller goes a row at a time.
func rows4Taps32(y []float32, ystep, n int, srcs []unsafe.Pointer, ws []float32, stride int, bias float32, xstep int) bool {
	return false
}
