//go:build !amd64 || purego

package conv

import "unsafe"

// rowTaps32 has no vector kernel here: the caller sums in Go.
func rowTaps32(y []float32, srcs []unsafe.Pointer, ws []float32, stride int, bias float32) bool {
	return false
}
