//go:build !amd64 || purego

package ops

// copyBytes is copy where there is no assembly kernel.
func copyBytes(dst, src []byte) int { return copy(dst, src) }
