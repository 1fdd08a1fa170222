//go:build !amd64 || purego

package elementwise

// Vectorized returns s: only amd64 has the assembly loops.
func Vectorized[T float32 | float64](op string, s BinarySpans[T, T, T]) BinarySpans[T, T, T] {
	return s
}

// ReluF32 is Relu's float32 loop.
func ReluF32(o, a []float32) { Relu(o, a) }

// Select32 is Where's loop for 4-byte elements.
func Select32(o []uint32, c []uint8, a, b []uint32) { SelectWords(o, c, a, b) }
