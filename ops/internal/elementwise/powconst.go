package elementwise

import (
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/mathf"
)

// Pow of a float32 (and float16 and bfloat16, through float32) base by one
// constant exponent, the GELU's x^3 and the decomposed LayerNormalization's
// x^2 among them. Pow's general loop (ops/pow.go) computes mathf.Pow(x, e)
// per element, which for an integral |e| <= 16 is math.Pow's own loop in
// float64 rounded once (mathf.PowInt) and for e = ±0.5 math.Sqrt
// (mathf.PowHalf); these loops give the same bits without the call.
//
// Why they agree with math.Pow. For an integral e, math.Pow writes x = x1 * 2^xe (x1 in
// [0.5, 1)) and computes x1^|e| by squaring and multiplying by the binary
// digits of |e| (a1 *= x1 for a set bit, then x1 *= x1, from the lowest
// bit), keeping the powers of two apart, then 1/a1 when e < 0, and scales
// back once with Ldexp. PowConst32 runs the same products in the same
// order on x itself in float64. A float32 x is a normal float64, and a
// product of normal float64 values differs from the product of their
// mantissas only by a power of two, which does not change its rounding: as
// long as every intermediate stays a normal float64, each product, the
// reciprocal and the result are math.Pow's exactly. When one does not
// (its magnitude passes 2^1024 or falls below 2^-1022), the result's does
// too (the intermediates are powers of |x| of at most |e|, the same side
// of 1 as the result for e > 0, the other side before the reciprocal for
// e < 0), and then both give an infinity or a zero of the same sign once
// rounded to float32 (whose range ends near 2^128 and 2^-150). math.Pow's
// guard against an exponent overflow (a binary exponent beyond ±4096 in
// the loop) cannot trigger for a float32 x (|xe| <= 149) and |e| <= 16.
// The special values are math.Pow's cases, in its order: e = 0 gives 1
// (even for NaN), a NaN gives the canonical NaN (for e = 1 too, where
// math.Pow would return x itself), and zeros
// and infinities come out of the same products (IEEE signs: (-0)^3 is -0,
// 1/-0 is -Inf, (-Inf)^2 is +Inf), as math.Pow's tables say. e = ±0.5 is
// mathf.PowHalf: math.Sqrt(x) and 1/Sqrt(x), after math.Pow's zero and
// infinity cases (Pow(±0, 0.5) = +0, Pow(-Inf, 0.5) = +Inf, Pow(±0, -0.5)
// = +Inf, Pow(±Inf, -0.5) = +0), the canonical NaN for a negative x.
//
// TestPowConst32 checks every one of these exponents against mathf.Pow,
// and that against float32(math.Pow(float64(x), e)), over every 1021st
// float32 bit pattern (both signs, subnormals, infinities and NaNs) and
// the edge values.

// maxPowConst is the largest |e| PowConst32 takes.
const maxPowConst = 16

// PowConst32 returns the loop o[i] = float32(math.Pow(float64(a[i]), e))
// for an exponent e that has one (an integer of magnitude at most 16, or
// ±0.5), and nil for any other e.
func PowConst32(e float64) UnarySpan[float32, float32] {
	switch {
	case e == 0:
		return func(o, _ []float32) {
			for i := range o {
				o[i] = 1
			}
		}
	case e == 1:
		return powOne
	case e == 2:
		return powSquare
	case e == 3:
		return powCube
	case e == 0.5 || e == -0.5:
		return powHalf(e)
	case e != math.Trunc(e) || math.Abs(e) > maxPowConst:
		return nil
	}
	n := int(math.Abs(e))
	inv := e < 0
	return func(o, a []float32) {
		for i, x := range a[:len(o)] {
			if x != x {
				o[i] = nan32()
				continue
			}
			p := powBits(float64(x), n)
			if inv {
				p = 1 / p
			}
			o[i] = float32(p)
		}
	}
}

// powBits is x^n by math.Pow's loop: the lowest bit first, a1 *= x1 for a
// set bit, then x1 *= x1 (the square after the last bit is not needed).
func powBits(x float64, n int) float64 {
	a1 := 1.0
	for i := n; i != 0; i >>= 1 {
		if i&1 == 1 {
			a1 *= x
		}
		if i > 1 {
			x *= x
		}
	}
	return a1
}

// nan32 is float32(math.NaN()), math.Pow's NaN as the general loop stores it.
func nan32() float32 { return float32(math.NaN()) }

// powOne is x^1: x, the canonical NaN for a NaN.
func powOne(o, a []float32) {
	for i, x := range a[:len(o)] {
		if x != x {
			x = nan32()
		}
		o[i] = x
	}
}

// powSquare is x^2: x*x is exact in float64, so one float32 product is the
// same rounding; the bulk by the vector loop (powSquareVector), the same
// operation.
func powSquare(o, a []float32) {
	a = a[:len(o)]
	done := powSquareVector(o, a)
	for i, x := range a[done:] {
		i += done
		if x != x {
			o[i] = nan32()
			continue
		}
		o[i] = x * x
	}
}

// powCube is x^3: (x*x)*x in float64 (x*x exact), rounded to float32;
// the bulk by the vector loop (powCubeVector), the same operations.
func powCube(o, a []float32) {
	a = a[:len(o)]
	done := powCubeVector(o, a)
	for i, x := range a[done:] {
		i += done
		if x != x {
			o[i] = nan32()
			continue
		}
		d := float64(x)
		o[i] = float32(d * d * d)
	}
}

// powHalf is x^0.5 or x^-0.5: mathf.PowHalf.
func powHalf(e float64) UnarySpan[float32, float32] {
	inv := e < 0
	return func(o, a []float32) {
		for i, x := range a[:len(o)] {
			o[i] = mathf.PowHalf(x, inv)
		}
	}
}
