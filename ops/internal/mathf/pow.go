package mathf

import "math"

// Pow of a float32 base (Pow's float, float16 and bfloat16 inputs) by an
// exponent held as float64 (Pow's exponent may be any number type: a
// float32 or an integer up to 2^53 is exact in it). The reference engine
// states the same sequence of operations (reference/pow32.go), so the two
// engines agree bit for bit.
//
// The algorithm, every step a float64 operation rounded once (products
// written float64(a*b) so that no compiler fuses them with an addition):
//
//   - The special values of C99's pow (Annex F.9.4.4), which math.Pow,
//     numpy and the ONNX node tests follow, in this order: y = 0 gives 1
//     (even for a NaN x) and x = 1 gives 1 (even for a NaN y); a NaN gives
//     NaN; ±0 and ±Inf bases and infinite exponents their table entries
//     (signed where y is an odd integer); a negative finite base to a
//     non-integral exponent NaN.
//   - An integral y with |y| <= 16 is math.Pow's own loop on x in float64
//     (squaring and multiplying by the binary digits of |y|, then 1/p for
//     y < 0, rounded once to float32), and y = ±0.5 is math.Sqrt (then
//     1/s): the loops of elementwise.PowConst32 (x^2, x^3, x^-1 in every
//     GELU and normalization) give these bits without a call per element.
//   - Any other y: log2|x| = k + log2(c) + log1p(r)/ln2, with |x| = 2^k*z,
//     z in [0.69921875, 1.3984375), c the centre of one of 16 intervals of
//     z (1 exactly for the interval holding 1, so that log2 near 1 keeps
//     its relative accuracy), r = z*(1/c) - 1, |r| < 0.0297, and
//     log1p(r)/(r*ln2) a degree-5 polynomial (relative error 3.2e-12,
//     a near-minimax fit); then t = y*log2|x| and 2^t = 2^(n/32) * 2^s,
//     n = round(32t), |s| <= 1/64, 2^(n/32) from a table of 32 and
//     (2^s - 1)/s a degree-3 polynomial (relative error 1.5e-11); the
//     product is rounded once to float32 (to ±Inf above t = 129, to ±0
//     below t = -151), negated for a negative base to an odd integer.
//
// Accuracy against the correctly rounded result (math.Pow in float64,
// rounded): the float64 steps carry a relative error near 2^-40 into the
// final rounding, so the result is within 0.5 ulp plus a hair:
// TestPowAccuracy holds it to 0.51 ulp over the sweep its comment
// documents (bases over every 16411th float32 bit pattern, exponents from
// a fixed list and random ones), and every integral exponent of magnitude
// at most 16 to math.Pow's own bits.

// powMaxInt is the largest |y| taken by math.Pow's multiplication loop.
const powMaxInt = 16

// powInvC and powLogC are, for each of the 16 intervals of z, 1/c rounded
// to float64 and -log2 of that rounded value (to float64).
var powInvC = [16]float64{
	0x1.661ec79f8f3bep+0, 0x1.571ed4aaf883dp+0, 0x1.49539f0f010b0p+0, 0x1.3c995b0b80385p+0,
	0x1.30d190c8864a5p+0, 0x1.25e227b0b8ea0p+0, 0x1.1bb4a4a1a343fp+0, 0x1.12358f08ae5bap+0,
	0x1.0953f419900a7p+0, 1, 0x1.e573ae5c66190p-1, 0x1.ca4b31f026aa0p-1,
	0x1.b2036576afce6p-1, 0x1.9c2d163a1aa2dp-1, 0x1.886e6037841edp-1, 0x1.767dcf5534862p-1,
}

var powLogC = [16]float64{
	-0x1.efec65b963019p-2, -0x1.b0b6832d4fca4p-2, -0x1.7418b0a1fb77bp-2, -0x1.39de91a6dcf7bp-2,
	-0x1.01d9bf3f2b631p-2, -0x1.97c1d1b3b7af0p-3, -0x1.2f9e393af3c9fp-3, -0x1.960cbbf788d5cp-4,
	-0x1.a6f9db6475fcep-5, 0, 0x1.3aa2e7ef9fe13p-4, 0x1.476a9543891bap-3,
	0x1.e840b4ac4e4d2p-3, 0x1.40645f0c6651cp-2, 0x1.88e9c2c1b9ff8p-2, 0x1.ce0a44eb17bccp-2,
}

// powLogP is log1p(r)/(r*ln2) on |r| <= 0.0297, lowest degree first.
var powLogP = [6]float64{
	0x1.71547652bd0c4p+0, -0x1.71547652eb571p-1, 0x1.ec7097b4518fbp-2,
	-0x1.71546b1e5d1a4p-2, 0x1.27be4fdfdce45p-2, -0x1.ed17aa41e35cbp-3,
}

// powExpP is (2^s - 1)/s on |s| <= 1/64, lowest degree first.
var powExpP = [4]float64{
	0x1.62e42fef8dc80p-1, 0x1.ebfbdff803ce2p-3, 0x1.c6b13c34aa724p-5, 0x1.3b2b3092e3930p-7,
}

// powExp2T is 2^(j/32) rounded to float64, j = 0..31.
var powExp2T = [32]float64{
	0x1.0000000000000p+0, 0x1.059b0d3158574p+0, 0x1.0b5586cf9890fp+0, 0x1.11301d0125b51p+0,
	0x1.172b83c7d517bp+0, 0x1.1d4873168b9aap+0, 0x1.2387a6e756238p+0, 0x1.29e9df51fdee1p+0,
	0x1.306fe0a31b715p+0, 0x1.371a7373aa9cbp+0, 0x1.3dea64c123422p+0, 0x1.44e086061892dp+0,
	0x1.4bfdad5362a27p+0, 0x1.5342b569d4f82p+0, 0x1.5ab07dd485429p+0, 0x1.6247eb03a5585p+0,
	0x1.6a09e667f3bcdp+0, 0x1.71f75e8ec5f74p+0, 0x1.7a11473eb0187p+0, 0x1.82589994cce13p+0,
	0x1.8ace5422aa0dbp+0, 0x1.93737b0cdc5e5p+0, 0x1.9c49182a3f090p+0, 0x1.a5503b23e255dp+0,
	0x1.ae89f995ad3adp+0, 0x1.b7f76f2fb5e47p+0, 0x1.c199bdd85529cp+0, 0x1.cb720dcef9069p+0,
	0x1.d5818dcfba487p+0, 0x1.dfc97337b9b5fp+0, 0x1.ea4afa2a490dap+0, 0x1.f50765b6e4540p+0,
}

// powShift rounds to a multiple of 1/32 when added (1.5*2^47).
const powShift = 0x1.8p47

// Pow returns x^y for a float32 x, as the comment above describes.
func Pow(x float32, y float64) float32 {
	if y == 0 || x == 1 {
		return 1
	}
	if x != x || y != y {
		return float32(math.NaN())
	}
	ay := math.Abs(y)
	integral := y == math.Trunc(y)
	if integral && ay <= powMaxInt {
		return PowInt(x, int(y))
	}
	if ay == 0.5 {
		return PowHalf(x, y < 0)
	}
	odd := integral && ay < 1<<53 && int64(y)&1 == 1
	switch {
	case x == 0:
		if y < 0 {
			if odd {
				return float32(math.Copysign(math.Inf(1), float64(x)))
			}
			return float32(math.Inf(1))
		}
		if odd {
			return x
		}
		return 0
	case math.IsInf(y, 0):
		switch ax := abs32(x); {
		case ax == 1:
			return 1
		case (ax < 1) == (y > 0):
			return 0
		}
		return float32(math.Inf(1))
	case math.IsInf(float64(x), 0):
		r := float32(math.Inf(1))
		if y < 0 {
			r = 0
		}
		if odd && x < 0 {
			r = -r
		}
		return r
	case x < 0 && !integral:
		return float32(math.NaN())
	}
	neg := x < 0 && odd
	t := y * powLog2(abs32(x))
	var p float64
	switch {
	case t >= 129:
		p = math.Inf(1)
	case t <= -151:
		p = 0
	default:
		p = powExp2(t)
	}
	if neg {
		p = -p
	}
	return float32(p)
}

// powLog2 is log2(a) for a positive finite float32 a.
func powLog2(a float32) float64 {
	ix := math.Float32bits(a)
	k := int32(0)
	if ix < 1<<23 { // subnormal: scale by 2^23
		ix = math.Float32bits(a * 0x1p23)
		k = -23
	}
	tmp := ix - 0x3f330000
	i := (tmp >> 19) & 15
	top := tmp & 0xff800000
	z := float64(math.Float32frombits(ix - top))
	k += int32(top) >> 23
	r := float64(z*powInvC[i]) - 1
	q := powLogP[5]
	for j := 4; j >= 0; j-- {
		q = float64(q*r) + powLogP[j]
	}
	return float64(k) + powLogC[i] + float64(r*q)
}

// powExp2 is 2^t for -151 < t < 129.
func powExp2(t float64) float64 {
	kd := t + powShift
	n := int64(math.Float64bits(kd) - math.Float64bits(powShift))
	kd -= powShift
	s := t - kd
	q := powExpP[3]
	for j := 2; j >= 0; j-- {
		q = float64(q*s) + powExpP[j]
	}
	sc := math.Float64frombits(math.Float64bits(powExp2T[n&31]) + uint64(n>>5)<<52)
	return float64(sc*float64(s*q)) + sc
}

// PowInt is x^n for |n| <= 16 by math.Pow's loop (the lowest bit of |n|
// first: a *= x for a set bit, then x *= x), then 1/a for n < 0, rounded
// once: math.Pow's bits (elementwise.PowConst32 explains why), its NaN for
// a NaN x.
func PowInt(x float32, n int) float32 {
	if n == 0 {
		return 1
	}
	if x != x {
		return float32(math.NaN())
	}
	m := n
	if m < 0 {
		m = -m
	}
	b, a := float64(x), 1.0
	for ; m != 0; m >>= 1 {
		if m&1 == 1 {
			a *= b
		}
		if m > 1 {
			b *= b
		}
	}
	if n < 0 {
		a = 1 / a
	}
	return float32(a)
}

// PowHalf is x^0.5 (x^-0.5 when inv): math.Sqrt (and 1/s), +0 for ±0
// (+Inf when inv), +Inf for ±Inf (+0 when inv), NaN for a negative x or
// a NaN.
func PowHalf(x float32, inv bool) float32 {
	switch {
	case x != x || x < 0 && x != 0 && !math.IsInf(float64(x), -1):
		return float32(math.NaN())
	case x == 0:
		if inv {
			return float32(math.Inf(1))
		}
		return 0
	case math.IsInf(float64(x), 0):
		if inv {
			return 0
		}
		return float32(math.Inf(1))
	}
	s := math.Sqrt(float64(x))
	if inv {
		s = 1 / s
	}
	return float32(s)
}

// Pows sets o[i] = Pow(x[i], float64(y[i])) for the i of o (x and y at
// least as long): the same bits, on amd64 8 elements at a time in the
// loops of pow_amd64.s.
func Pows(o, x, y []float32) {
	x, y = x[:len(o)], y[:len(o)]
	pows(o, x, y)
}

// PowsRight sets o[i] = Pow(x[i], float64(y)) for the i of o.
func PowsRight(o, x []float32, y float32) {
	x = x[:len(o)]
	// The exponents of Pow's other branches, for every element: their
	// loops directly, rather than the vector loop stopping at each vector.
	switch e := float64(y); {
	case e == math.Trunc(e) && math.Abs(e) <= powMaxInt:
		for i, v := range x {
			o[i] = PowInt(v, int(e))
		}
		return
	case math.Abs(e) == 0.5:
		for i, v := range x {
			o[i] = PowHalf(v, e < 0)
		}
		return
	}
	var ys [powChunk]float32
	for i := range ys {
		ys[i] = y
	}
	for len(o) > 0 {
		n := min(len(o), powChunk)
		pows(o[:n], x[:n], ys[:n])
		o, x = o[n:], x[n:]
	}
}

// PowsLeft sets o[i] = Pow(x, float64(y[i])) for the i of o.
func PowsLeft(o []float32, x float32, y []float32) {
	y = y[:len(o)]
	var xs [powChunk]float32
	for i := range xs {
		xs[i] = x
	}
	for len(o) > 0 {
		n := min(len(o), powChunk)
		pows(o[:n], xs[:n], y[:n])
		o, y = o[n:], y[n:]
	}
}

// powChunk is how many elements PowsRight and PowsLeft hand the loop at a
// time, the scalar operand repeated in a buffer on the stack.
const powChunk = 256

func powsGo(o, x, y []float32) {
	for i := range o {
		o[i] = Pow(x[i], float64(y[i]))
	}
}
