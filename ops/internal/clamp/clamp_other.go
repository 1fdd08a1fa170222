//go:build !amd64 || purego

package clamp

func float32sVector(dst, src []float32, lo, hi float32) int { return 0 }

func float64sVector(dst, src []float64, lo, hi float64) int { return 0 }
