//go:build !amd64 || purego

package conv

import "unsafe"

// rowKernel is "go": no vector kernel here.
var rowKernel = "go"

func rowKernels() []string { return []string{"go"} }

// rowTaps32 has no vector kernel here: the caller sums in Go.
func rowTaps32(y []float32, srcs []unsafe.Pointer, ws []float32, stride int, bias float32) bool {
	return false
}
