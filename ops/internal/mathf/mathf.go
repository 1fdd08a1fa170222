// Package mathf holds the float32 elementary functions of the engines'
// inner loops: Exp, Log, Expm1, Sigmoid, Tanh and Erf, the activations
// built on them (Softplus, Mish, Gelu and its tanh form, Swish, Elu,
// Selu, Celu), the piecewise-linear ones (HardSigmoid, HardSwish,
// Softsign, LeakyRelu, ThresholdedRelu, Shrink) and the circular and
// hyperbolic functions and their inverses (trig.go: Sin, Cos, Tan, Asin,
// Acos, Atan, Sinh, Cosh, Asinh, Acosh, Atanh), each a fixed sequence of
// float32 operations, multiply-adds fused (fma32: rounded once, as the
// FMA instructions do), so that the bits are the same on every platform,
// accurate to a few units in the last place, and their slice forms
// (Sigmoids, Tanhs, SigmoidsTo, TanhsTo, ErfsTo, ExpsTo, LogsTo, ...
// ShrinksTo, SinsTo ... AtanhsTo), the same bits over a slice without a
// call per element: on amd64 with AVX2 and FMA, 8 elements at a time in
// the loops of mathf_amd64.s, and with AVX512F and AVX512DQ besides, 16 at
// a time in those of mathf_avx512_amd64.s (both written by
// scripts/gen-mathf-asm.py, the AVX-512 ones translated instruction for
// instruction from the AVX2 ones, but for Exp's scaling by 2^k, one
// VSCALEFPS there (one rounding of p*2^k, as the two exact-then-rounded
// products), which also writes the Go dispatch
// loops_amd64.go and loops_other.go), operation for operation the scalar
// function's; elsewhere, and under the purego tag, Go loops. Exp is Softmax's exp32 (ops/internal/reduce,
// reference/exp32.go) with an upper clamp; Log is Cephes' logf. Pow
// (pow.go) is Pow's float32 power, in float64 steps (its comment gives the
// algorithm and its bound, 0.51 ulp), and its slice forms Pows,
// PowsLeft and PowsRight run the same float64 steps 8 elements at a time
// in the loops of pow_amd64.s (written by scripts/gen-pow-asm.py).
// ExpsToStreamed, SigmoidsToStreamed, TanhsToStreamed, ErfsToStreamed and
// SoftsignsToStreamed (streamed.go) are the same bits with the AVX-512
// loops' stores non-temporal, for the large calls (the operators take
// them from elementwise.Config.StreamFrom).
//
// The operators Exp, Log, Sigmoid, Tanh, Erf, Softplus, Mish, Gelu,
// Swish, Elu, Selu, Celu, HardSigmoid, HardSwish, Softsign, LeakyRelu,
// ThresholdedRelu and Shrink (ops/<name>.go) compute float32 (and float16
// and bfloat16, through float32) with them, and the reference engine
// states the same algorithms in reference/ (float32math.go, exp32.go), so
// that the two engines agree bit for bit; the recurrent cells
// (ops/internal/rnn) use Sigmoid and Tanh for their float32 gate
// activations, where a float64 exponential per element would cost more
// than the cell's matrix products. LeakyRelu, ThresholdedRelu and Shrink
// give the bits of the float64 definition rounded once (one float32
// product, sum or comparison is that already).
//
// Accuracy, in units in the last place (ulps) of the float32 nearest the
// exact value, against float64 math (math.Exp, 1/(1+math.Exp(-x)),
// math.Tanh, math.Erf), over every 101st float32 of magnitude below 100,
// both signs (TestAccuracy; every 10007th under -short): Exp at most 0.87
// ulps, Sigmoid 2.18, Tanh 1.35, Erf 1.00; the tests hold them to 1.5, 3,
// 2 and 1.5. TestAccuracyExhaustive (MATHF_EXHAUSTIVE=1, half an hour)
// holds the slice forms to the same bounds over every float32 of
// magnitude below 100 (the functions are at their limits beyond), where it
// measured Sigmoid at most 2.40 ulps, Tanh 1.37 and Erf 1.11.
// TestActivationAccuracy holds the functions of activations.go, over every
// 97th float32 of the stated range (both signs; every 9973rd under -short,
// every one with MATHF_EXHAUSTIVE=1), to the bounds below (in parentheses
// the largest error measured on the every-97th sweep): Log 1.5 ulps (0.78
// over the positive float32), Expm1 4 (2.89, the largest just above ln2/2,
// where e^x - 1 loses two bits of Exp's result; below 0, as Elu uses it,
// 1.39), Softplus 3.5 (2.67, x >= -103), Mish 5 (3.95, x >= -87), Swish
// 4 (2.94, x >= -87), Elu 3 (1.39), Softsign 2 (1.50), HardSwish 3
// (1.86), and for x >= -1 Gelu 4 (2.45) and its tanh form 5 (3.70): below
// -1 their 1 + erf (1 + tanh) cancels, as it does in onnxruntime's MLAS,
// whose Gelu is the same formula, and the error is small against 1 rather
// than against the result. TestTrigAccuracy holds the functions of
// trig.go, against the correctly rounded result (float64 math rounded),
// over every float32 of their domain (every 997th under the default test,
// every 9973rd under -short, every one with MATHF_EXHAUSTIVE=1; Sinh and
// Cosh over |x| <= 90, where they overflow), to these bounds (in
// parentheses the largest error measured over every 97th float32): Sin 2
// ulps (1.48), Cos 2 (1.48), Tan 3 (2.36), Asin 2.5 (1.82), Acos 1.5
// (1.07), Atan 2.5 (2.06), Sinh 2 (1.57), Cosh 2 (1.29), Asinh 2.5
// (2.04), Acosh 3 (2.21), Atanh 2 (1.29). Where onnxruntime calls the C
// library's float functions (about 0.5 ulp) these are less accurate, by
// one to two ulps: the price of the vector loops. Sin, Cos and Tan beyond
// |x| = 65536 are float64 math rounded once (0.5 ulp).
// HardSigmoid is fma32(alpha, x, beta) clamped,
// correctly rounded. onnxruntime's MLAS approximations (Eigen's rational
// tanh and logistic, erf from a polynomial and an exponential, Cephes'
// log) are of the same order. NaN gives NaN (ThresholdedRelu and Shrink:
// 0, as their definitions do); none of them ever panics or allocates,
// and none writes anything but its output.
package mathf

import "math"

const (
	expMin   = float32(-104) // below, e^x is under half the smallest subnormal
	expMax   = float32(89)   // above, e^x overflows float32
	log2e    = float32(1.44269504088896341)
	round    = float32(12582912) // 1.5*2^23: adding it rounds to an integer
	ln2Hi    = float32(0.693359375)
	ln2Lo    = float32(-2.12194440e-4)
	expBias  = 127
	tanhPoly = float32(0.625)    // below, Tanh is Cephes' odd polynomial
	erfSplit = float32(0.921875) // below, Erf is an odd polynomial
	erfMax   = float32(4)        // above, Erf rounds to ±1
)

// The polynomials' coefficients, highest degree first: Cephes' expf (its
// six, then 1 and 1: 1 + r + r^2*P(r)) and tanhf (Moshier); for Erf, near-minimax fits (mpmath's chebyfit, to
// 30 digits) of erf(x)/x - 1 on [0, erfSplit] in x*x (so that the last
// step adds x itself) and of log(erfc(x)) on [erfSplit, erfMax].
var (
	expP  = [8]float32{1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1, 1, 1}
	tanhP = [5]float32{-5.70498872745e-3, 2.06390887954e-2, -5.37397155531e-2, 1.33314422036e-1, -3.33332819422e-1}
	erfP  = [7]float32{8.38759104571e-5, -8.14720209261e-4, 5.20146686897e-3, -2.68595923107e-2, 1.12836994257e-1, -3.76126340282e-1, 1.28379166670e-1}
	erfQ  = [10]float32{-5.21184012303e-8, 2.7693390929e-6, -5.66940161122e-5, 6.53381910704e-4, -4.94692195984e-3, 2.68204710933e-2, -1.10626771597e-1, -6.31363716245e-1, -1.13045213904, 3.64150005894e-4}
)

// Exp returns e^x: Cody and Waite's reduction x = k*ln2 + r, |r| <= ln2/2,
// e^r by Cephes' expf polynomial (Moshier) in Horner's rule, and the result
// scaled by 2^k in two exact-then-rounded steps so that subnormal results
// round once: the algorithm of Softmax's exp32 (reference/exp32.go), every
// multiply-add fused (fma32), as the AVX2 loops' VFMADD.
func Exp(x float32) float32 {
	if x != x {
		return x
	}
	x = min(max(x, expMin), expMax)
	k := fma32(x, log2e, round) - round
	r := fma32(-k, ln2Hi, x)
	r = fma32(-k, ln2Lo, r)
	p := expP[0]
	for _, c := range expP[1:] {
		p = fma32(p, r, c)
	}
	k1 := int32(k) >> 1
	k2 := int32(k) - k1
	return float32(p*pow2(k1)) * pow2(k2)
}

// pow2 is 2^k for a normal exponent k, from its bits.
func pow2(k int32) float32 {
	return math.Float32frombits(uint32(k+expBias) << 23)
}

// fma32 is a*b + c rounded once to float32, for finite a, b, c with a
// finite product: in float64 the product is exact, TwoSum gives the sum
// and its exact error, and the sum rounded to odd rounds to float32 as the
// exact one does (reference/exp32.go explains it). The AVX2 loops' VFMADD
// computes the same.
func fma32(a, b, c float32) float32 {
	p := float64(float64(a) * float64(b)) // the conversion keeps Go from fusing
	cc := float64(c)
	s := p + cc
	bb := s - p
	e := (p - (s - bb)) + (cc - bb)
	if bits := math.Float64bits(s); e != 0 && e == e && bits&1 == 0 { // e is NaN where an operand or the product is infinite: s is the IEEE result then
		if (e > 0) == (s > 0) {
			bits++
		} else {
			bits--
		}
		s = math.Float64frombits(bits)
	}
	return float32(s)
}

// withSignOf returns t with the sign bit of x.
func withSignOf(t, x float32) float32 {
	return math.Float32frombits(math.Float32bits(t) | math.Float32bits(x)&(1<<31))
}

// abs32 is |x|, by its bits.
func abs32(x float32) float32 {
	return math.Float32frombits(math.Float32bits(x) &^ (1 << 31))
}

// Sigmoid returns 1/(1+e^-x), written as e^x/(1+e^x) for negative x so
// that the small results keep their relative accuracy: e = e^-|x| either
// way.
func Sigmoid(x float32) float32 {
	if x != x {
		return x
	}
	e := Exp(math.Float32frombits(math.Float32bits(x) | 1<<31))
	if x < 0 {
		return e / (1 + e)
	}
	return 1 / (1 + e)
}

// Tanh returns the hyperbolic tangent: Cephes' tanhf odd polynomial below
// |x| = 0.625, 1 - 2/(e^(2|x|)+1) with x's sign above (1 once e^(2|x|)
// overflows).
func Tanh(x float32) float32 {
	a := abs32(x)
	if a < tanhPoly {
		z := x * x
		p := tanhP[0]
		for _, c := range tanhP[1:] {
			p = fma32(p, z, c)
		}
		return fma32(float32(p*z), x, x)
	}
	if a != a {
		return x
	}
	return withSignOf(1-2/(Exp(2*a)+1), x)
}

// Erf returns the error function: x + x*p(x*x) below |x| = erfSplit, and
// above 1 - e^q(|x|) with x's sign, q a polynomial for log(erfc), |x|
// taken no further than erfMax, where erf rounds to 1.
func Erf(x float32) float32 {
	a := abs32(x)
	if a < erfSplit {
		z := x * x
		p := erfP[0]
		for _, c := range erfP[1:] {
			p = fma32(p, z, c)
		}
		return fma32(p, x, x)
	}
	if a != a {
		return x
	}
	a = min(a, erfMax)
	q := erfQ[0]
	for _, c := range erfQ[1:] {
		q = fma32(q, a, c)
	}
	return withSignOf(1-Exp(q), x)
}

// Sigmoids replaces every element of v by its Sigmoid, bit for bit.
func Sigmoids(v []float32) { sigmoids(v, v) }

// Tanhs replaces every element of v by its Tanh, bit for bit.
func Tanhs(v []float32) { tanhs(v, v) }

// SigmoidsTo sets o[i] to Sigmoid(a[i]) for every element of o (a is at
// least as long; o and a are the same slice or do not overlap).
func SigmoidsTo(o, a []float32) { sigmoids(o, a[:len(o)]) }

// TanhsTo sets o[i] to Tanh(a[i]), as SigmoidsTo.
func TanhsTo(o, a []float32) { tanhs(o, a[:len(o)]) }

// ErfsTo sets o[i] to Erf(a[i]), as SigmoidsTo.
func ErfsTo(o, a []float32) { erfs(o, a[:len(o)]) }

// sigmoidsGo, tanhsGo and erfsGo are the Go loops of the slice forms.
func sigmoidsGo(o, a []float32) {
	for i, x := range a[:len(o)] {
		o[i] = Sigmoid(x)
	}
}

func tanhsGo(o, a []float32) {
	for i, x := range a[:len(o)] {
		o[i] = Tanh(x)
	}
}

func erfsGo(o, a []float32) {
	for i, x := range a[:len(o)] {
		o[i] = Erf(x)
	}
}
