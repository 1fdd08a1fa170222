package elementwise

import "math"

// Fmod32 is C's fmodf, Mod's float32 function with fmod=1 (the remainder
// of a/b with a's sign), exact as fmod always is, without math.Mod's
// bit-by-bit loop where the quotient is small.
//
// For |a/b| < 2^29 it computes in float64: t = trunc(a/b) is the true
// quotient n = trunc(a/b exactly) or, where the rounded quotient reached
// the next integer, one more in magnitude (never less: n is representable
// and rounding is monotonic). t*b is exact (at most 29+24 bits) and so is
// a - t*b: its magnitude is below 2|b| and its low bit no finer than b's
// float32 ulp (|a| >= |b| here), 25 bits at most. A result of the wrong
// sign is the overshoot, put right by adding |b| with a's sign; the result,
// a zero included, takes a's sign. Every other case (b zero, infinite or tiny against a,
// a infinite, NaN) is math.Mod's.
func Fmod32(a, b float32) float32 {
	x, y := float64(a), float64(b)
	q := x / y
	if !(math.Abs(q) < 1<<29) || math.IsInf(y, 0) { // NaN, infinite or large quotients
		return float32(math.Mod(x, y))
	}
	r := x - math.Trunc(q)*y
	// Add |b| with a's sign where r is nonzero and of the other sign,
	// without a branch (which way it goes depends on the data).
	over := (b2u(r < 0) ^ b2u(x < 0)) & b2u(r != 0)
	r += math.Float64frombits(math.Float64bits(math.Copysign(y, x)) & -uint64(over))
	return float32(math.Copysign(r, x))
}

// FmodF32 are Mod's float32 loops with fmod=1.
var FmodF32 = BinarySpans[float32, float32, float32]{
	Both: func(o, a, b []float32) {
		a, b = a[:len(o)], b[:len(o)]
		for i := range o {
			o[i] = Fmod32(a[i], b[i])
		}
	},
	Left: func(o []float32, a float32, b []float32) {
		b = b[:len(o)]
		for i := range o {
			o[i] = Fmod32(a, b[i])
		}
	},
	Right: func(o, a []float32, b float32) {
		a = a[:len(o)]
		for i := range o {
			o[i] = Fmod32(a[i], b)
		}
	},
}
