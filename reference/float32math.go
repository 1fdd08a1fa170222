// The float32 algorithms of Sigmoid, Tanh, Erf, Exp, Log and the
// activations built on them (Softplus, Mish, Gelu, Swish, Elu, Selu, Celu)
// and of HardSigmoid, HardSwish and Softsign on float, float16 and
// bfloat16 tensors: the fast engine computes them in float32 with these
// very sequences of operations (ops/internal/mathf, whose package comment
// gives their accuracy in units in the last place of the exact value), so
// the two engines agree bit for bit. Written here once more, element by
// element, sharing nothing with the engine: every step one IEEE float32
// operation, a multiply-add fused (fma32, exp32.go) where the text says
// fma32, and the exponential exp32 (exp32.go), whose argument is clamped
// to [-104, 89] as exp32 does.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// sigmoid32 is 1/(1+e^-|x|) for x >= 0 and e^-|x|/(1+e^-|x|) below.
func sigmoid32(x float32) float32 {
	if x != x {
		return x
	}
	e := exp32(-float32(math.Abs(float64(x))))
	if x < 0 {
		return e / (1 + e)
	}
	return 1 / (1 + e)
}

// tanh32 is Cephes' tanhf: an odd polynomial below |x| = 0.625, above
// 1 - 2/(e^(2|x|)+1) with x's sign.
func tanh32(x float32) float32 {
	a := float32(math.Abs(float64(x)))
	if a < 0.625 {
		z := x * x
		p := float32(-5.70498872745e-3)
		for _, c := range []float32{2.06390887954e-2, -5.37397155531e-2, 1.33314422036e-1, -3.33332819422e-1} {
			p = fma32(p, z, c)
		}
		return fma32(p*z, x, x)
	}
	if a != a {
		return x
	}
	t := 1 - 2/(exp32(2*a)+1)
	return float32(math.Copysign(float64(t), float64(x)))
}

// erf32 is x + x*p(x*x) below |x| = 0.921875, and above 1 - e^q(|x|) with
// x's sign, q a polynomial for log(erfc) on [0.921875, 4] (|x| no further
// than 4, where erf rounds to 1).
func erf32(x float32) float32 {
	a := float32(math.Abs(float64(x)))
	if a < 0.921875 {
		z := x * x
		p := float32(8.38759104571e-5)
		for _, c := range []float32{-8.14720209261e-4, 5.20146686897e-3, -2.68595923107e-2, 1.12836994257e-1, -3.76126340282e-1, 1.28379166670e-1} {
			p = fma32(p, z, c)
		}
		return fma32(p, x, x)
	}
	if a != a {
		return x
	}
	a = min(a, 4)
	q := float32(-5.21184012303e-8)
	for _, c := range []float32{2.7693390929e-6, -5.66940161122e-5, 6.53381910704e-4, -4.94692195984e-3, 2.68204710933e-2, -1.10626771597e-1, -6.31363716245e-1, -1.13045213904, 3.64150005894e-4} {
		q = fma32(q, a, c)
	}
	r := 1 - exp32(q)
	return float32(math.Copysign(float64(r), float64(x)))
}

// float32Function is the unary kernel of an operator whose float,
// float16 and bfloat16 elements go through the float32 algorithm f32
// (rounded to the 16-bit types once), and whose other elements (double;
// Erf-9's integers) through f64 in float64.
func float32Function(f32 func(float32) float32, f64 func(float64) float64) ops.Kernel {
	k32 := unaryKernel(func(_ call, x scalar) scalar { return floatOf(float64(f32(float32(x.f)))) })
	k64 := unaryKernel(func(_ call, x scalar) scalar { return floatOf(f64(realOf(x))) })
	return func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		if len(in) > 0 {
			if x, ok := in[0].(*tensor.Tensor); ok && x != nil {
				switch x.DataType() {
				case tensor.Float, tensor.Float16, tensor.BFloat16:
					return k32(opt, n, in)
				}
			}
		}
		return k64(opt, n, in)
	}
}

// log32 is Cephes' logf: NaN and x < 0 give NaN, 0 gives -Inf, +Inf
// itself. Otherwise x = 2^k * m with m in [sqrt(1/2), sqrt(2)) (a
// subnormal x multiplied by 2^23 first, k lowered by 23), f = m - 1
// (exact), and log x = k*ln2 + f - f^2/2 + f^3*P(f): y = (P(f)*f)*f^2,
// y = fma32(k, ln2Lo, y), y = fma32(-1/2, f^2, y), r = f + y, and
// fma32(k, ln2Hi, r), ln2Hi and ln2Lo exp32's.
func log32(x float32) float32 {
	switch {
	case x != x || x < 0:
		return float32(math.NaN())
	case x == 0:
		return float32(math.Inf(-1))
	case math.IsInf(float64(x), 1):
		return x
	}
	k := int32(0)
	if x < 0x1p-126 {
		x *= 0x1p23
		k = -23
	}
	bits := math.Float32bits(x)
	k += int32(bits>>23) - 126
	m := math.Float32frombits(bits&0x007fffff | 0x3f000000) // in [1/2, 1)
	if m < float32(0.707106781186547524) {
		k--
		m = m + m
	}
	f := m - 1
	z := f * f
	p := float32(7.0376836292e-2)
	for _, c := range []float32{-1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1, 1.4249322787e-1, -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1} {
		p = fma32(p, f, c)
	}
	y := float32(p*f) * z
	fk := float32(k)
	y = fma32(fk, -2.12194440e-4, y)
	y = fma32(-0.5, z, y)
	r := f + y
	return fma32(fk, 0.693359375, r)
}

// expm1_32 is e^x - 1: x clamped as exp32 clamps it and k = round(x*log2
// e) as exp32 computes it; where k is not 0, exp32(x) - 1; where it is 0
// (then r = x), exp32's Horner steps but the last, q, and q*x.
func expm1_32(x float32) float32 {
	if x != x {
		return x
	}
	x = min(max(x, -104), 89)
	const round = float32(12582912)
	if k := fma32(x, 1.44269504088896341, round) - round; k != 0 {
		return exp32(x) - 1
	}
	q := float32(1.9875691500e-4)
	for _, c := range []float32{1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1, 1} {
		q = fma32(q, x, c)
	}
	return q * x
}

// softplus32 is log(1+e^x) = max(x, 0) + log1p(e^-|x|): e = exp32(-|x|),
// w = 1 + e, t = e where w is 1, log32(w) * (e/(w-1)) elsewhere
// (Goldberg's log1p), and (x if x > 0, else 0) + t.
func softplus32(x float32) float32 {
	if x != x {
		return x
	}
	e := exp32(-float32(math.Abs(float64(x))))
	w := 1 + e
	t := e
	if w != 1 {
		t = log32(w) * (e / (w - 1))
	}
	if x > 0 {
		return x + t
	}
	return 0 + t
}

// mish32 is x * tanh32(softplus32(x)).
func mish32(x float32) float32 {
	if x != x {
		return x
	}
	return x * tanh32(softplus32(x))
}

// gelu32 is x/2 * (1 + erf(x/sqrt 2)) as fma32(h, erf32(x * 1/sqrt2), h),
// h = x/2.
func gelu32(x float32) float32 {
	if x != x {
		return x
	}
	h := x / 2
	return fma32(h, erf32(x*float32(1/math.Sqrt2)), h)
}

// geluTanh32 is x/2 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3))): c = x
// clamped to [-10, 10] (where the tanh is ±1 already), w = fma32(0.044715
// * (c*c), c, c), h = x/2, and fma32(h, tanh32(sqrt(2/pi) * w), h).
func geluTanh32(x float32) float32 {
	if x != x {
		return x
	}
	c := min(max(x, -10), 10)
	w := fma32(float32(0.044715)*float32(c*c), c, c)
	h := x / 2
	return fma32(h, tanh32(float32(math.Sqrt(2/math.Pi))*w), h)
}

// swish32 is x * sigmoid32(alpha*x).
func swish32(x, alpha float32) float32 {
	if x != x {
		return x
	}
	return x * sigmoid32(alpha*x)
}

// elu32 is alpha * expm1_32(x) for x < 0, x elsewhere.
func elu32(x, alpha float32) float32 {
	if x < 0 {
		return alpha * expm1_32(x)
	}
	return x
}

// selu32 is gamma*x for x > 0, gamma * (alpha * expm1_32(x)) elsewhere.
func selu32(x, alpha, gamma float32) float32 {
	if x > 0 {
		return gamma * x
	}
	return gamma * float32(alpha*expm1_32(x))
}

// celu32 is max(0, x) + min(0, alpha * expm1_32(x/alpha)): x + 0 for x >=
// 0 (the second term is 0 there), alpha * expm1_32(x/alpha) below (the
// first is).
func celu32(x, alpha float32) float32 {
	if x != x {
		return x
	}
	if x >= 0 {
		return x + 0
	}
	return alpha * expm1_32(x/alpha)
}

// hardSigmoid32 is fma32(alpha, x, beta) clamped to [0, 1].
func hardSigmoid32(x, alpha, beta float32) float32 {
	y := fma32(alpha, x, beta)
	switch {
	case y < 0:
		return 0
	case y > 1:
		return 1
	}
	return y
}

// hardSwish32 is x * max(0, min(1, x/6 + 1/2)), with x/6 + 1/2 computed as
// (x+3)/6.
func hardSwish32(x float32) float32 {
	h := (x + 3) / 6
	switch {
	case h < 0:
		h = 0
	case h > 1:
		h = 1
	}
	return x * h
}

// softsign32 is x / (1 + |x|).
func softsign32(x float32) float32 {
	return x / (1 + float32(math.Abs(float64(x))))
}

// float32Unary is float32Function for an operator with attributes (and
// e's rules): f32 of the node and x for float, float16 and bfloat16, f64
// for double.
func float32Unary(e elementwiseOp, f32 func(c call, x float32) float32, f64 func(c call, x scalar) scalar) ops.Kernel {
	k32 := e.unary(func(c call, x scalar) scalar { return floatOf(float64(f32(c, float32(x.f)))) })
	k64 := e.unary(f64)
	return func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		if len(in) > 0 {
			if x, ok := in[0].(*tensor.Tensor); ok && x != nil {
				switch x.DataType() {
				case tensor.Float, tensor.Float16, tensor.BFloat16:
					return k32(opt, n, in)
				}
			}
		}
		return k64(opt, n, in)
	}
}

// The circular and hyperbolic functions and their inverses on float,
// float16 and bfloat16 (Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh,
// Asinh, Acosh, Atanh): the float32 algorithms of ops/internal/mathf
// (trig.go, after Cephes' sinf, cosf, tanf, asinf, acosf, atanf, sinhf,
// asinhf, acoshf, atanhf; the package comment there gives each one's
// accuracy), stated here once more. Every polynomial is Horner's rule in
// fma32 steps, highest coefficient first (poly32).

// poly32 is c[0]*z^(n-1) + ... + c[n-1] by Horner's rule, each step fma32.
func poly32(c []float32, z float32) float32 {
	p := c[0]
	for _, k := range c[1:] {
		p = fma32(p, z, k)
	}
	return p
}

// quadrant32 returns, for |x| <= 65536, the integer j nearest x*2/pi
// (fma32(x, 2/pi, 1.5*2^23) - 1.5*2^23) and r = x - j*pi/2 by three fma32
// steps with pi/2 in three float32 parts.
func quadrant32(x float32) (int32, float32) {
	const round = float32(12582912)
	j := fma32(x, float32(0.636619772367581343), round) - round
	r := fma32(-j, float32(1.5707963705062866), x)
	r = fma32(-j, float32(-4.371138828673793e-08), r)
	r = fma32(-j, float32(-1.7151245100058819e-15), r)
	return int32(j), r
}

// sinCos32 is sin r = fma32(r*z, S(z), r) and cos r = 1 + fma32(z*z,
// C(z), -z/2), z = r*r, for |r| <= pi/4 (Cephes' sinf and cosf
// polynomials).
func sinCos32(r float32) (float32, float32) {
	z := r * r
	s := fma32(r*z, poly32([]float32{-1.9515295891e-4, 8.3321608736e-3, -1.6666654611e-1}, z), r)
	c := 1 + fma32(z*z, poly32([]float32{2.443315711809948e-5, -1.388731625493765e-3, 4.166664568298827e-2}, z), -0.5*z)
	return s, c
}

// sin32 is the sine: beyond |x| = 65536 (and for Inf and NaN) math.Sin
// rounded to float32; below, by the quadrant j: sin r, cos r, -sin r,
// -cos r for j mod 4 = 0, 1, 2, 3.
func sin32(x float32) float32 {
	if !(math.Abs(float64(x)) <= 65536) {
		return float32(math.Sin(float64(x)))
	}
	j, r := quadrant32(x)
	s, c := sinCos32(r)
	switch j & 3 {
	case 0:
		return s
	case 1:
		return c
	case 2:
		return -s
	}
	return -c
}

// cos32 is the cosine, as sin32: cos r, -sin r, -cos r, sin r.
func cos32(x float32) float32 {
	if !(math.Abs(float64(x)) <= 65536) {
		return float32(math.Cos(float64(x)))
	}
	j, r := quadrant32(x)
	s, c := sinCos32(r)
	switch j & 3 {
	case 0:
		return c
	case 1:
		return -s
	case 2:
		return -c
	}
	return s
}

// tan32 is the tangent, as sin32: t = fma32(r*z, T(z), r) (a fit of
// tan(r)/r on [0, pi/4]), t for even j and -1/t for odd.
func tan32(x float32) float32 {
	if !(math.Abs(float64(x)) <= 65536) {
		return float32(math.Tan(float64(x)))
	}
	j, r := quadrant32(x)
	z := r * r
	t := fma32(r*z, poly32([]float32{3.8431398570537567e-3, 1.1853215983137488e-3, 9.96214710175991e-3, 2.162112668156624e-2, 5.399446561932564e-2, 1.3333231210708618e-1, 3.333333432674408e-1}, z), r)
	if j%2 != 0 {
		return -1 / t
	}
	return t
}

// asinPoly32 is asin v = fma32(v*z, P(z), v), z = v*v, for |v| <= 1/2
// (Cephes' asinf polynomial).
func asinPoly32(v, z float32) float32 {
	return fma32(v*z, poly32([]float32{4.2163199048e-2, 2.4181311049e-2, 4.5470025998e-2, 7.4953002686e-2, 1.6666752422e-1}, z), v)
}

// asin32 is the arcsine: a = |x|; asinPoly32(a, a*a) for a <= 1/2, above
// ((pi/4)hi - w + (pi/4)lo) * 2, w = asinPoly32(sqrt(z), z), z = (1-a)/2;
// with x's sign.
func asin32(x float32) float32 {
	if x != x {
		return x
	}
	a := float32(math.Abs(float64(x)))
	var y float32
	if a <= 0.5 {
		y = asinPoly32(a, a*a)
	} else {
		z := 0.5 * (1 - a)
		w := asinPoly32(float32(math.Sqrt(float64(z))), z)
		y = (float32(0.7853981852531433) - w + float32(-2.1855694143368964e-08)) * 2
	}
	return float32(math.Copysign(float64(y), float64(x)))
}

// acos32 is the arccosine: (pi/2)hi - (asinPoly32(x, x*x) - (pi/2)lo) for
// |x| <= 1/2; above, with w as asin32's, 2w for x > 0 and pi_hi - (2w -
// pi_lo) for x < 0.
func acos32(x float32) float32 {
	if x != x {
		return x
	}
	a := float32(math.Abs(float64(x)))
	if a <= 0.5 {
		return float32(1.5707963705062866) - (asinPoly32(x, x*x) - float32(-4.371138828673793e-08))
	}
	z := 0.5 * (1 - a)
	w := asinPoly32(float32(math.Sqrt(float64(z))), z)
	if x > 0 {
		return 2 * w
	}
	return float32(3.1415927410125732) - (2*w - float32(-8.742277657347586e-08))
}

// atan32 is the arctangent: a = |x|; above tan(3pi/8) v = -1/a and the
// offset pi/2, above tan(pi/8) v = (a-1)/(a+1) and pi/4, else v = a and 0;
// hi + (fma32(v*z, P(z), v) + lo), z = v*v, P a fit of (atan(v) - v)/v^3,
// with x's sign.
func atan32(x float32) float32 {
	if x != x {
		return x
	}
	a := float32(math.Abs(float64(x)))
	v, hi, lo := a, float32(0), float32(0)
	switch {
	case a > float32(2.414213562373095):
		v, hi, lo = -1/a, float32(1.5707963705062866), float32(-4.371138828673793e-08)
	case a > float32(0.4142135623730950):
		v, hi, lo = (a-1)/(a+1), float32(0.7853981852531433), float32(-2.1855694143368964e-08)
	}
	z := v * v
	t := fma32(v*z, poly32([]float32{-6.451927870512009e-2, 1.0743731260299683e-1, -1.4263956248760223e-1, 1.9999539852142334e-1, -3.333333134651184e-1}, z), v)
	return float32(math.Copysign(float64(hi+(t+lo)), float64(x)))
}

// halfExp32 is e^a/2 for 0 <= a <= 90: exp32's steps (without its clamp)
// with the result scaled by 2^(k-1).
func halfExp32(a float32) float32 {
	const round = float32(12582912)
	k := fma32(a, 1.44269504088896341, round) - round
	r := fma32(-k, 0.693359375, a)
	r = fma32(-k, -2.12194440e-4, r)
	p := poly32([]float32{1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1, 1, 1}, r)
	k1 := (int32(k) - 1) >> 1
	k2 := int32(k) - 1 - k1
	return float32(p*pow2(k1)) * pow2(k2)
}

// sinh32 is the hyperbolic sine: fma32(x*z, P(z), x), z = x*x, for |x| <=
// 1 (Cephes' sinhf polynomial); above h - 0.25/h, h = halfExp32(min(|x|,
// 90)), with x's sign.
func sinh32(x float32) float32 {
	if x != x {
		return x
	}
	a := float32(math.Abs(float64(x)))
	if a <= 1 {
		z := x * x
		return fma32(x*z, poly32([]float32{2.03721912945e-4, 8.33028376239e-3, 1.66667160211e-1}, z), x)
	}
	h := halfExp32(min(a, 90))
	return float32(math.Copysign(float64(h-0.25/h), float64(x)))
}

// cosh32 is the hyperbolic cosine: h + 0.25/h, h = halfExp32(min(|x|, 90)).
func cosh32(x float32) float32 {
	if x != x {
		return x
	}
	h := halfExp32(min(float32(math.Abs(float64(x))), 90))
	return h + 0.25/h
}

// asinh32 is the inverse hyperbolic sine: a = |x|; below 1 fma32(a*z,
// P(z), a), z = a*a, P a fit of (asinh(a) - a)/a^3; above 4096 log32(a) +
// log 2; between log32(a + sqrt(fma32(a, a, 1))); with x's sign.
func asinh32(x float32) float32 {
	if x != x {
		return x
	}
	a := float32(math.Abs(float64(x)))
	var y float32
	switch {
	case a < 1:
		z := a * a
		y = fma32(a*z, poly32([]float32{-5.097479443065822e-4, 2.929448150098324e-3, -7.981782779097557e-3, 1.4515038579702377e-2, -2.1511420607566833e-2, 3.022781014442444e-2, -4.46285754442215e-2, 7.499948143959045e-2, -1.666666567325592e-1}, z), a)
	case a > 4096:
		y = log32(a) + float32(0.693147180559945309)
	default:
		y = log32(a + float32(math.Sqrt(float64(fma32(a, a, 1)))))
	}
	return float32(math.Copysign(float64(y), float64(x)))
}

// acosh32 is the inverse hyperbolic cosine: z = x - 1; below z = 1/2
// P(z)*sqrt(z) (Cephes' acoshf polynomial); above x = 4096 log32(x) + log
// 2; between log32(x + sqrt(z*(x+1))). NaN below 1.
func acosh32(x float32) float32 {
	if x != x {
		return x
	}
	z := x - 1
	switch {
	case z < 0.5:
		return poly32([]float32{1.7596881071e-3, -7.5272886713e-3, 2.6454905019e-2, -1.1784741703e-1, 1.4142135263}, z) * float32(math.Sqrt(float64(z)))
	case x > 4096:
		return log32(x) + float32(0.693147180559945309)
	}
	return log32(x + float32(math.Sqrt(float64(z*(x+1)))))
}

// atanh32 is the inverse hyperbolic tangent: a = |x|; below 1/2
// fma32(a*z, P(z), a), z = a*a, P a fit of (atanh(a) - a)/a^3; above
// 0.5 * log32((1+a)/(1-a)); with x's sign.
func atanh32(x float32) float32 {
	if x != x {
		return x
	}
	a := float32(math.Abs(float64(x)))
	var y float32
	if a < 0.5 {
		z := a * a
		y = fma32(a*z, poly32([]float32{1.5751780569553375e-1, 6.493489444255829e-2, 1.1469875276088715e-1, 1.4263980090618134e-1, 2.000047266483307e-1, 3.333333134651184e-1}, z), a)
	} else {
		y = 0.5 * log32((1+a)/(1-a))
	}
	return float32(math.Copysign(float64(y), float64(x)))
}
