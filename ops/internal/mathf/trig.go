package mathf

import "math"

// The circular and hyperbolic functions and their inverses: Sin, Cos,
// Tan, Asin, Acos, Atan, Sinh, Cosh, Asinh, Acosh and Atanh, each a fixed
// sequence of float32 operations (fma32 where the text says so) after
// Cephes' single-precision algorithms (Moshier: sinf, cosf, tanf, asinf,
// acosf, atanf, sinhf, asinhf, acoshf, atanhf), their slice forms (SinsTo
// ... AtanhsTo) the same bits through an AVX2 loop of mathf_amd64.s on
// amd64 and the Go loops below elsewhere. reference/float32math.go states
// each once more. The accuracy of each, in ulps of the correctly rounded
// result, is in the package comment; TestTrigAccuracy enforces it.
//
// Sin, Cos and Tan reduce x by the nearest multiple j of pi/2 in float32
// (Cody and Waite with three parts of pi/2, each product exact in a fused
// multiply-add) for |x| <= trigMax; beyond (and for ±Inf and NaN) they
// fall back to float64 math (math.Sin, whose Payne-Hanek reduction is
// exact for every float64) rounded once, so that every float32 input is
// right.

const (
	trigMax   = float32(65536)                // beyond, Sin, Cos and Tan fall back to float64
	twoOverPi = float32(0.636619772367581343) // 2/pi
	pio2C1    = float32(1.5707963705062866)   // pi/2 = pio2C1 + pio2C2 + pio2C3 (to 2^-76)
	pio2C2    = float32(-4.371138828673793e-08)
	pio2C3    = float32(-1.7151245100058819e-15)
	pio2Hi    = float32(1.5707963705062866) // pi/2 = pio2Hi + pio2Lo
	pio2Lo    = float32(-4.371138828673793e-08)
	pio4Hi    = float32(0.7853981852531433) // pi/4 = pio4Hi + pio4Lo
	pio4Lo    = float32(-2.1855694143368964e-08)
	piHi      = float32(3.1415927410125732) // pi = piHi + piLo
	piLo      = float32(-8.742277657347586e-08)
	tan3pio8  = float32(2.414213562373095)  // tan(3pi/8)
	tanPio8   = float32(0.4142135623730950) // tan(pi/8)
	ln2F      = float32(0.693147180559945309)
	sinhPoly  = float32(1)    // below, Sinh is a polynomial
	coshMax   = float32(90)   // above, Cosh and Sinh overflow (clamped so the scaling stays in range)
	asinhPoly = float32(1)    // below, Asinh is a polynomial
	asinhBig  = float32(4096) // above, Asinh and Acosh are log(x) + log(2)
	acoshPoly = float32(0.5)  // below x-1 = this, Acosh is a polynomial in x-1
	atanhPoly = float32(0.5)
)

// The polynomials' coefficients, highest degree first (Cephes).
var (
	sinP   = [3]float32{-1.9515295891e-4, 8.3321608736e-3, -1.6666654611e-1}
	cosP   = [3]float32{2.443315711809948e-5, -1.388731625493765e-3, 4.166664568298827e-2}
	tanP   = [7]float32{3.8431398570537567e-3, 1.1853215983137488e-3, 9.96214710175991e-3, 2.162112668156624e-2, 5.399446561932564e-2, 1.3333231210708618e-1, 3.333333432674408e-1}
	asinP  = [5]float32{4.2163199048e-2, 2.4181311049e-2, 4.5470025998e-2, 7.4953002686e-2, 1.6666752422e-1}
	atanP  = [5]float32{-6.451927870512009e-2, 1.0743731260299683e-1, -1.4263956248760223e-1, 1.9999539852142334e-1, -3.333333134651184e-1}
	sinhP  = [3]float32{2.03721912945e-4, 8.33028376239e-3, 1.66667160211e-1}
	asinhP = [9]float32{-5.097479443065822e-4, 2.929448150098324e-3, -7.981782779097557e-3, 1.4515038579702377e-2, -2.1511420607566833e-2, 3.022781014442444e-2, -4.46285754442215e-2, 7.499948143959045e-2, -1.666666567325592e-1}
	acoshP = [5]float32{1.7596881071e-3, -7.5272886713e-3, 2.6454905019e-2, -1.1784741703e-1, 1.4142135263}
	atanhP = [6]float32{1.5751780569553375e-1, 6.493489444255829e-2, 1.1469875276088715e-1, 1.4263980090618134e-1, 2.000047266483307e-1, 3.333333134651184e-1}
)

// horner is p(z) by Horner's rule, every step an fma32.
func horner(c []float32, z float32) float32 {
	p := c[0]
	for _, k := range c[1:] {
		p = fma32(p, z, k)
	}
	return p
}

// reduce returns the quadrant j (the integer nearest x*2/pi) and r = x -
// j*pi/2, for |x| <= trigMax: fma32(x, 2/pi, round) - round rounds to an
// integer; r by three fused steps, the first exact.
func reduce(x float32) (int32, float32) {
	j := fma32(x, twoOverPi, round) - round
	r := fma32(-j, pio2C1, x)
	r = fma32(-j, pio2C2, r)
	r = fma32(-j, pio2C3, r)
	return int32(j), r
}

// sinCos returns sin r and cos r for |r| <= pi/4: r + r^3*S(r^2) and 1 +
// (r^4*C(r^2) - r^2/2).
func sinCos(r float32) (s, c float32) {
	z := r * r
	s = fma32(r*z, horner(sinP[:], z), r)
	c = 1 + fma32(z*z, horner(cosP[:], z), -0.5*z)
	return s, c
}

// Sin returns the sine of x (radians).
func Sin(x float32) float32 {
	if !(abs32(x) <= trigMax) {
		return float32(math.Sin(float64(x)))
	}
	j, r := reduce(x)
	s, c := sinCos(r)
	y := s
	if j&1 != 0 {
		y = c
	}
	if j&2 != 0 {
		y = -y
	}
	return y
}

// Cos returns the cosine of x (radians).
func Cos(x float32) float32 {
	if !(abs32(x) <= trigMax) {
		return float32(math.Cos(float64(x)))
	}
	j, r := reduce(x)
	s, c := sinCos(r)
	y := c
	if j&1 != 0 {
		y = s
	}
	if (j+1)&2 != 0 {
		y = -y
	}
	return y
}

// Tan returns the tangent of x (radians): t = r + r^3*T(r^2), and -1/t
// in the odd quadrants.
func Tan(x float32) float32 {
	if !(abs32(x) <= trigMax) {
		return float32(math.Tan(float64(x)))
	}
	j, r := reduce(x)
	z := r * r
	t := fma32(r*z, horner(tanP[:], z), r)
	if j&1 != 0 {
		t = -1 / t
	}
	return t
}

// asinCore returns asin v = v + v^3*P(v^2) for |v| <= 1/2, z = v^2.
func asinCore(v, z float32) float32 {
	return fma32(v*z, horner(asinP[:], z), v)
}

// Asin returns the arcsine of x: asinCore(|x|) below |x| = 1/2, above pi/2
// - 2*asin(sqrt((1-|x|)/2)), with x's sign; NaN outside [-1, 1].
func Asin(x float32) float32 {
	if x != x {
		return x
	}
	a := abs32(x)
	var y float32
	if a <= 0.5 {
		y = asinCore(a, a*a)
	} else {
		z := 0.5 * (1 - a)
		s := float32(math.Sqrt(float64(z)))
		w := asinCore(s, z)
		y = (pio4Hi - w + pio4Lo) * 2
	}
	return withSignOf(y, x)
}

// Acos returns the arccosine of x: pi/2 - asinCore(x) for |x| <= 1/2;
// above, with s = sqrt((1-|x|)/2), 2*asinCore(s) for x > 0 and pi -
// 2*asinCore(s) for x < 0; NaN outside [-1, 1].
func Acos(x float32) float32 {
	if x != x {
		return x
	}
	a := abs32(x)
	if a <= 0.5 {
		return pio2Hi - (asinCore(x, x*x) - pio2Lo)
	}
	z := 0.5 * (1 - a)
	s := float32(math.Sqrt(float64(z)))
	w := asinCore(s, z)
	if x > 0 {
		return 2 * w
	}
	return piHi - (2*w - piLo)
}

// Atan returns the arctangent of x: with a = |x|, v = -1/a and y0 = pi/2
// above tan(3pi/8), v = (a-1)/(a+1) and y0 = pi/4 above tan(pi/8), v = a
// and y0 = 0 below; y0 + v + v^3*P(v^2), with x's sign.
func Atan(x float32) float32 {
	if x != x {
		return x
	}
	a := abs32(x)
	v, hi, lo := a, float32(0), float32(0)
	if a > tan3pio8 {
		v, hi, lo = -1/a, pio2Hi, pio2Lo
	} else if a > tanPio8 {
		v, hi, lo = (a-1)/(a+1), pio4Hi, pio4Lo
	}
	z := v * v
	t := fma32(v*z, horner(atanP[:], z), v)
	return withSignOf(hi+(t+lo), x)
}

// expHalf returns e^a/2 for 0 <= a <= coshMax: Exp's steps, the result
// scaled by 2^(k-1) rather than 2^k (exactly: it is normal).
func expHalf(a float32) float32 {
	k := fma32(a, log2e, round) - round
	r := fma32(-k, ln2Hi, a)
	r = fma32(-k, ln2Lo, r)
	p := expP[0]
	for _, c := range expP[1:] {
		p = fma32(p, r, c)
	}
	k1 := (int32(k) - 1) >> 1
	k2 := int32(k) - 1 - k1
	return float32(p*pow2(k1)) * pow2(k2)
}

// Sinh returns the hyperbolic sine: x + x^3*P(x^2) for |x| <= 1, above
// h - 1/(4h) with h = e^|x|/2, with x's sign.
func Sinh(x float32) float32 {
	if x != x {
		return x
	}
	a := abs32(x)
	if a <= sinhPoly {
		z := x * x
		return fma32(x*z, horner(sinhP[:], z), x)
	}
	h := expHalf(min(a, coshMax))
	return withSignOf(h-0.25/h, x)
}

// Cosh returns the hyperbolic cosine: h + 1/(4h), h = e^|x|/2.
func Cosh(x float32) float32 {
	if x != x {
		return x
	}
	h := expHalf(min(abs32(x), coshMax))
	return h + 0.25/h
}

// sqrt32 is the correctly rounded float32 square root (VSQRTPS).
func sqrt32(x float32) float32 { return float32(math.Sqrt(float64(x))) }

// Asinh returns the inverse hyperbolic sine: with a = |x|, a + a^3*P(a^2)
// below 1/2, log(a) + log 2 above asinhBig, log(a + sqrt(a^2+1)) between,
// with x's sign.
func Asinh(x float32) float32 {
	if x != x {
		return x
	}
	a := abs32(x)
	var y float32
	switch {
	case a < asinhPoly:
		z := a * a
		y = fma32(a*z, horner(asinhP[:], z), a)
	case a > asinhBig:
		y = Log(a) + ln2F
	default:
		y = Log(a + sqrt32(fma32(a, a, 1)))
	}
	return withSignOf(y, x)
}

// Acosh returns the inverse hyperbolic cosine: with z = x - 1,
// sqrt(z)*P(z) for z < 1/2, log(x) + log 2 above asinhBig, log(x +
// sqrt(z*(x+1))) between; NaN below 1.
func Acosh(x float32) float32 {
	if x != x {
		return x
	}
	z := x - 1
	switch {
	case z < acoshPoly:
		return horner(acoshP[:], z) * sqrt32(z)
	case x > asinhBig:
		return Log(x) + ln2F
	}
	return Log(x + sqrt32(z*(x+1)))
}

// Atanh returns the inverse hyperbolic tangent: with a = |x|, a +
// a^3*P(a^2) below 1/2, above log((1+a)/(1-a))/2, with x's sign (±Inf at
// ±1, NaN beyond).
func Atanh(x float32) float32 {
	if x != x {
		return x
	}
	a := abs32(x)
	var y float32
	if a < atanhPoly {
		z := a * a
		y = fma32(a*z, horner(atanhP[:], z), a)
	} else {
		y = 0.5 * Log((1+a)/(1-a))
	}
	return withSignOf(y, x)
}

// SinsTo sets o[i] to Sin(a[i]) for every element of o (a is at least as
// long; o and a are the same slice or do not overlap), bit for bit; CossTo
// ... AtanhsTo likewise.
func SinsTo(o, a []float32)   { sins(o, a[:len(o)], nil) }
func CossTo(o, a []float32)   { coss(o, a[:len(o)], nil) }
func TansTo(o, a []float32)   { tans(o, a[:len(o)], nil) }
func AsinsTo(o, a []float32)  { asins(o, a[:len(o)], nil) }
func AcossTo(o, a []float32)  { acoss(o, a[:len(o)], nil) }
func AtansTo(o, a []float32)  { atans(o, a[:len(o)], nil) }
func SinhsTo(o, a []float32)  { sinhs(o, a[:len(o)], nil) }
func CoshsTo(o, a []float32)  { coshs(o, a[:len(o)], nil) }
func AsinhsTo(o, a []float32) { asinhs(o, a[:len(o)], nil) }
func AcoshsTo(o, a []float32) { acoshs(o, a[:len(o)], nil) }
func AtanhsTo(o, a []float32) { atanhs(o, a[:len(o)], nil) }

// The Go loops of the slice forms.

func sinsGo(o, a []float32, _ *[4][8]float32) {
	for i, x := range a[:len(o)] {
		o[i] = Sin(x)
	}
}

func cossGo(o, a []float32, _ *[4][8]float32) {
	for i, x := range a[:len(o)] {
		o[i] = Cos(x)
	}
}

func tansGo(o, a []float32, _ *[4][8]float32) {
	for i, x := range a[:len(o)] {
		o[i] = Tan(x)
	}
}

func asinsGo(o, a []float32, _ *[4][8]float32) {
	for i, x := range a[:len(o)] {
		o[i] = Asin(x)
	}
}

func acossGo(o, a []float32, _ *[4][8]float32) {
	for i, x := range a[:len(o)] {
		o[i] = Acos(x)
	}
}

func atansGo(o, a []float32, _ *[4][8]float32) {
	for i, x := range a[:len(o)] {
		o[i] = Atan(x)
	}
}

func sinhsGo(o, a []float32, _ *[4][8]float32) {
	for i, x := range a[:len(o)] {
		o[i] = Sinh(x)
	}
}

func coshsGo(o, a []float32, _ *[4][8]float32) {
	for i, x := range a[:len(o)] {
		o[i] = Cosh(x)
	}
}

func asinhsGo(o, a []float32, _ *[4][8]float32) {
	for i, x := range a[:len(o)] {
		o[i] = Asinh(x)
	}
}

func acoshsGo(o, a []float32, _ *[4][8]float32) {
	for i, x := range a[:len(o)] {
		o[i] = Acosh(x)
	}
}

func atanhsGo(o, a []float32, _ *[4][8]float32) {
	for i, x := range a[:len(o)] {
		o[i] = Atanh(x)
	}
}
