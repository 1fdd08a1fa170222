//go:build !amd64 || purego

package movement

// pairs32 has no vector form here: the caller does every element.
func pairs32(dst, src []uint32) int { return 0 }
