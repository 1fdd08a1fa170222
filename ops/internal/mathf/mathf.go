// Package mathf holds the float32 elementary functions of the engines'
// inner loops: Exp, Sigmoid and Tanh, each a fixed sequence of float32
// operations (no float64 and no fused multiply-add, so the bits are the
// same on every platform), accurate to a few units in the last place, and
// Sigmoids and Tanhs, the same bits over a slice without a call per
// element.
//
// The recurrent cells (ops/internal/rnn) use them for their float32 gate
// activations, where a float64 exponential per element would cost more
// than the cell's matrix products.
//
// Measured against float64 math (math.Exp, 1/(1+math.Exp(-x)),
// math.Tanh) over every 101st float32 of magnitude up to 100, both signs,
// in units in the last place (ulps) of the float32 nearest the exact
// value (TestAccuracy): Exp at most 0.96 ulps, Sigmoid 2.18, Tanh 1.29;
// the test holds them to 1.5, 3 and 2. NaN gives NaN; none of them ever
// panics or allocates.
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
	tanhPoly = float32(0.625) // below, Tanh is Cephes' odd polynomial
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
	p := float32(1.9875691500e-4)
	p = float32(p*r) + 1.3981999507e-3
	p = float32(p*r) + 8.3334519073e-3
	p = float32(p*r) + 4.1665795894e-2
	p = float32(p*r) + 1.6666665459e-1
	p = float32(p*r) + 5.0000001201e-1
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
		p := float32(-5.70498872745e-3)
		p = float32(p*z) + 2.06390887954e-2
		p = float32(p*z) - 5.37397155531e-2
		p = float32(p*z) + 1.33314422036e-1
		p = float32(p*z) - 3.33332819422e-1
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

// Sigmoids replaces every element of v by its Sigmoid, bit for bit, with
// the exponential written into the loop: no call per element.
func Sigmoids(v []float32) {
	for i, x := range v {
		if x != x {
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
		p := float32(1.9875691500e-4)
		p = float32(p*r) + 1.3981999507e-3
		p = float32(p*r) + 8.3334519073e-3
		p = float32(p*r) + 4.1665795894e-2
		p = float32(p*r) + 1.6666665459e-1
		p = float32(p*r) + 5.0000001201e-1
		p = float32(float32(p*float32(r*r))+r) + 1
		k1 := int32(k) >> 1
		e := float32(p*pow2(k1)) * pow2(int32(k)-k1)
		if x >= 0 {
			v[i] = 1 / (1 + e)
		} else {
			v[i] = e / (1 + e)
		}
	}
}

// Tanhs replaces every element of v by its Tanh, bit for bit.
func Tanhs(v []float32) {
	for i, x := range v {
		v[i] = Tanh(x)
	}
}
