//go:build !amd64 || purego

package elementwise

// Vectorized returns s: only amd64 has the assembly loops.
func Vectorized[T float32 | float64](op string, s BinarySpans[T, T, T]) BinarySpans[T, T, T] {
	return s
}

// ReluF32 is Relu's float32 loop.
func ReluF32(o, a []float32) { Relu(o, a) }

// MulF32 is o[i] = a[i] * b[i], Mul's float32 loop.
func MulF32(o, a, b []float32) {
	a, b = a[:len(o)], b[:len(o)]
	for i := range o {
		o[i] = a[i] * b[i]
	}
}

// Select32 is Where's loop for 4-byte elements.
func Select32(o []uint32, c []uint8, a, b []uint32) { SelectWords(o, c, a, b) }

// FloorF32 is Floor's float32 loop.
func FloorF32(o, a []float32) { floorF32(o, a) }

// CeilF32 is Ceil's float32 loop.
func CeilF32(o, a []float32) { ceilF32(o, a) }

// RoundF32 is Round's float32 loop.
func RoundF32(o, a []float32) { roundF32(o, a) }

// SqrtF32 is Sqrt's float32 loop.
func SqrtF32(o, a []float32) { sqrtF32(o, a) }

// ReciprocalF32 is Reciprocal's float32 loop.
func ReciprocalF32(o, a []float32) { reciprocalF32(o, a) }

// AbsF32 is Abs's float32 loop.
func AbsF32(o, a []float32) { absF32(o, a) }

// NegF32 is Neg's float32 loop.
func NegF32(o, a []float32) { Negate(o, a) }
