//go:build !amd64 || purego

package linalg

// det8 has no vector form here.
func det8[F float32 | float64](dst []float64, src []F) bool { return false }
