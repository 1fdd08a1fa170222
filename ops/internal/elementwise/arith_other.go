//go:build !amd64 || purego

package ops

// vectorized returns s: only amd64 has the assembly loops.
func vectorized[T float32 | float64](op string, s binarySpans[T, T, T]) binarySpans[T, T, T] {
	return s
}

// reluF32 is Relu's float32 loop.
func reluF32(o, a []float32) { reluSpan(o, a) }

// select32 is Where's loop for 4-byte elements.
func select32(o []uint32, c []uint8, a, b []uint32) { selectWords(o, c, a, b) }
