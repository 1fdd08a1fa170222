// Package mathf holds the float32 elementary functions of the engines'
// inner loops: Exp, Sigmoid, Tanh and Erf, each a fixed sequence of
// float32 operations (no float64 and no fused multiply-add, so the bits
// are the same on every platform), accurate to a few units in the last
// place, and their slice forms (Sigmoids, Tanhs, SigmoidsTo, TanhsTo,
// ErfsTo), the same bits over a slice without a call per element: on amd64
// with AVX2, 8 elements at a time in the loops of mathf_amd64.s (written
// by scripts/gen-mathf-asm.py), operation for operation the scalar
// function's; elsewhere, and under the purego tag, Go loops.
//
// The operators Sigmoid, Tanh and Erf (ops/sigmoid.go, tanh.go, erf.go)
// compute float32 (and float16 and bfloat16, through float32) with them,
// and the reference engine states the same algorithms in reference/
// (float32math.go), so that the two engines agree bit for bit; the
// recurrent cells (ops/internal/rnn) use them for their float32 gate
// activations, where a float64 exponential per element would cost more
// than the cell's matrix products.
//
// Accuracy, in units in the last place (ulps) of the float32 nearest the
// exact value, against float64 math (math.Exp, 1/(1+math.Exp(-x)),
// math.Tanh, math.Erf), over every 101st float32 of magnitude below 100,
// both signs (TestAccuracy; every 10007th under -short): Exp at most 0.96
// ulps, Sigmoid 2.18, Tanh 1.29, Erf 1.19; the tests hold them to 1.5, 3,
// 2 and 1.5. TestAccuracyExhaustive (MATHF_EXHAUSTIVE=1) holds the slice
// forms to the same bounds over every float32 of magnitude below 100 (the
// functions are at their limits beyond). onnxruntime's MLAS
// approximations (Eigen's rational tanh and logistic, erf from a
// polynomial and an exponential) are of the same order. NaN gives NaN;
// none of them ever panics or allocates, and none writes anything but its
// output.
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

// The polynomials' coefficients, highest degree first: Cephes' expf and
// tanhf (Moshier); for Erf, near-minimax fits (mpmath's chebyfit, to
// 30 digits) of erf(x)/x - 1 on [0, erfSplit] in x*x (so that the last
// step adds x itself) and of log(erfc(x)) on [erfSplit, erfMax].
var (
	expP  = [6]float32{1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1}
	tanhP = [5]float32{-5.70498872745e-3, 2.06390887954e-2, -5.37397155531e-2, 1.33314422036e-1, -3.33332819422e-1}
	erfP  = [7]float32{8.38759104571e-5, -8.14720209261e-4, 5.20146686897e-3, -2.68595923107e-2, 1.12836994257e-1, -3.76126340282e-1, 1.28379166670e-1}
	erfQ  = [10]float32{-5.21184012303e-8, 2.7693390929e-6, -5.66940161122e-5, 6.53381910704e-4, -4.94692195984e-3, 2.68204710933e-2, -1.10626771597e-1, -6.31363716245e-1, -1.13045213904, 3.64150005894e-4}
)

// Exp returns e^x: Cody and Waite's reduction x = k*ln2 + r, |r| <= ln2/2,
// e^r by Cephes' expf polynomial (Moshier), and the result scaled by 2^k in
// two exact-then-rounded steps so that subnormal results round once.
func Exp(x float32) float32 {
	if x != x {
		return x
	}
	x = min(max(x, expMin), expMax)
	k := float32(float32(x*log2e)+round) - round
	r := x - float32(k*ln2Hi)
	r = r - float32(k*ln2Lo)
	p := expP[0]
	for _, c := range expP[1:] {
		p = float32(p*r) + c
	}
	p = float32(float32(p*float32(r*r))+r) + 1
	k1 := int32(k) >> 1
	k2 := int32(k) - k1
	return float32(p*pow2(k1)) * pow2(k2)
}

// pow2 is 2^k for a normal exponent k, from its bits.
func pow2(k int32) float32 {
	return math.Float32frombits(uint32(k+expBias) << 23)
}

// Sigmoid returns 1/(1+e^-x), written as e^x/(1+e^x) for negative x so
// that the small results keep their relative accuracy.
func Sigmoid(x float32) float32 {
	if x >= 0 {
		return 1 / (1 + Exp(-x))
	}
	e := Exp(x) // NaN passes through here
	return e / (1 + e)
}

// Tanh returns the hyperbolic tangent: Cephes' tanhf odd polynomial below
// |x| = 0.625, 1 - 2/(e^(2|x|)+1) with x's sign above (1 once e^(2|x|)
// overflows).
func Tanh(x float32) float32 {
	a := x
	if a < 0 {
		a = -a
	}
	if a < tanhPoly {
		z := x * x
		p := tanhP[0]
		for _, c := range tanhP[1:] {
			p = float32(p*z) + c
		}
		return float32(float32(p*z)*x) + x
	}
	if a != a {
		return x
	}
	t := 1 - 2/(Exp(2*a)+1)
	if x < 0 {
		return -t
	}
	return t
}

// Erf returns the error function: x + x*p(x*x) below |x| = erfSplit, and
// above 1 - e^q(|x|) with x's sign, q a polynomial for log(erfc), |x|
// taken no further than erfMax, where erf rounds to 1.
func Erf(x float32) float32 {
	a := math.Float32frombits(math.Float32bits(x) &^ (1 << 31))
	if a < erfSplit {
		z := x * x
		p := erfP[0]
		for _, c := range erfP[1:] {
			p = float32(p*z) + c
		}
		return float32(p*x) + x
	}
	a = min(a, erfMax) // NaN stays NaN
	q := erfQ[0]
	for _, c := range erfQ[1:] {
		q = float32(q*a) + c
	}
	r := 1 - Exp(q)
	return math.Float32frombits(math.Float32bits(r) | math.Float32bits(x)&(1<<31))
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

// sigmoidsGo is the Go loop of Sigmoids, with the exponential written
// into the loop: no call per element.
func sigmoidsGo(o, v []float32) {
	for i, x := range v[:len(o)] {
		if x != x {
			o[i] = x
			continue
		}
		// e = Exp(-|x|), as Exp computes it.
		a := x
		if a > 0 {
			a = -a
		}
		a = max(a, expMin)
		k := float32(float32(a*log2e)+round) - round
		r := a - float32(k*ln2Hi)
		r = r - float32(k*ln2Lo)
		p := expP[0]
		for _, c := range expP[1:] {
			p = float32(p*r) + c
		}
		p = float32(float32(p*float32(r*r))+r) + 1
		k1 := int32(k) >> 1
		e := float32(p*pow2(k1)) * pow2(int32(k)-k1)
		if x >= 0 {
			o[i] = 1 / (1 + e)
		} else {
			o[i] = e / (1 + e)
		}
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
