// The float32 power of Pow's float, float16 and bfloat16 bases: the fast
// engine computes x^y with this very sequence of float64 operations
// (ops/internal/mathf/pow.go, whose comment gives its accuracy: within
// 0.51 ulp of the correctly rounded result, enforced by its test), so the
// two engines agree bit for bit. Written here once more, sharing nothing
// with the engine: every float64 product is rounded before it is added
// (written float64(a*b), so that no compiler fuses the two).
//
// The steps:
//  1. C99's special values (Annex F.9.4.4; math.Pow, numpy and the ONNX
//     node tests follow them): pow(x, ±0) = 1, pow(1, y) = 1, NaN in
//     gives NaN, zeros, infinities and infinite exponents by the table,
//     a negative base to a non-integral power NaN.
//  2. An integral y, |y| <= 16: x^|y| in float64 by squaring and
//     multiplying by the binary digits of |y|, lowest first, 1/p for
//     y < 0 (math.Pow's own steps). y = ±0.5: the square root (1/root).
//  3. Otherwise 2^(y*log2|x|): log2|x| from |x| = 2^k*z, z in
//     [0.69921875, 1.3984375) cut in 16 intervals (by bits 19-22 of
//     z's bits less 0x3f330000), log2 z = log2(c) + log1p(r)/ln2 with
//     r = z/c - 1 (z times 1/c rounded), a degree-5 polynomial; then
//     2^t = 2^(n/32) * (1 + s*q(s)), n the integer nearest 32t, and
//     rounded once to float32, negative for a negative base to an odd
//     integer.

package reference

import "math"

// The tables and coefficients of step 3 (hexadecimal float64 literals:
// 1/c, -log2(1/c), 2^(j/32), and the two polynomials lowest degree first,
// fitted on |r| <= 0.0297 and |s| <= 1/64).
var (
	pow32InvC = [16]float64{
		0x1.661ec79f8f3bep+0, 0x1.571ed4aaf883dp+0, 0x1.49539f0f010b0p+0, 0x1.3c995b0b80385p+0,
		0x1.30d190c8864a5p+0, 0x1.25e227b0b8ea0p+0, 0x1.1bb4a4a1a343fp+0, 0x1.12358f08ae5bap+0,
		0x1.0953f419900a7p+0, 1, 0x1.e573ae5c66190p-1, 0x1.ca4b31f026aa0p-1,
		0x1.b2036576afce6p-1, 0x1.9c2d163a1aa2dp-1, 0x1.886e6037841edp-1, 0x1.767dcf5534862p-1,
	}
	pow32LogC = [16]float64{
		-0x1.efec65b963019p-2, -0x1.b0b6832d4fca4p-2, -0x1.7418b0a1fb77bp-2, -0x1.39de91a6dcf7bp-2,
		-0x1.01d9bf3f2b631p-2, -0x1.97c1d1b3b7af0p-3, -0x1.2f9e393af3c9fp-3, -0x1.960cbbf788d5cp-4,
		-0x1.a6f9db6475fcep-5, 0, 0x1.3aa2e7ef9fe13p-4, 0x1.476a9543891bap-3,
		0x1.e840b4ac4e4d2p-3, 0x1.40645f0c6651cp-2, 0x1.88e9c2c1b9ff8p-2, 0x1.ce0a44eb17bccp-2,
	}
	pow32Exp2 = [32]float64{
		0x1.0000000000000p+0, 0x1.059b0d3158574p+0, 0x1.0b5586cf9890fp+0, 0x1.11301d0125b51p+0,
		0x1.172b83c7d517bp+0, 0x1.1d4873168b9aap+0, 0x1.2387a6e756238p+0, 0x1.29e9df51fdee1p+0,
		0x1.306fe0a31b715p+0, 0x1.371a7373aa9cbp+0, 0x1.3dea64c123422p+0, 0x1.44e086061892dp+0,
		0x1.4bfdad5362a27p+0, 0x1.5342b569d4f82p+0, 0x1.5ab07dd485429p+0, 0x1.6247eb03a5585p+0,
		0x1.6a09e667f3bcdp+0, 0x1.71f75e8ec5f74p+0, 0x1.7a11473eb0187p+0, 0x1.82589994cce13p+0,
		0x1.8ace5422aa0dbp+0, 0x1.93737b0cdc5e5p+0, 0x1.9c49182a3f090p+0, 0x1.a5503b23e255dp+0,
		0x1.ae89f995ad3adp+0, 0x1.b7f76f2fb5e47p+0, 0x1.c199bdd85529cp+0, 0x1.cb720dcef9069p+0,
		0x1.d5818dcfba487p+0, 0x1.dfc97337b9b5fp+0, 0x1.ea4afa2a490dap+0, 0x1.f50765b6e4540p+0,
	}
	pow32LogPoly = []float64{
		0x1.71547652bd0c4p+0, -0x1.71547652eb571p-1, 0x1.ec7097b4518fbp-2,
		-0x1.71546b1e5d1a4p-2, 0x1.27be4fdfdce45p-2, -0x1.ed17aa41e35cbp-3,
	}
	pow32ExpPoly = []float64{0x1.62e42fef8dc80p-1, 0x1.ebfbdff803ce2p-3, 0x1.c6b13c34aa724p-5, 0x1.3b2b3092e3930p-7}
)

// horner64 is p[0] + v*(p[1] + v*(...)), every product rounded.
func horner64(p []float64, v float64) float64 {
	q := p[len(p)-1]
	for j := len(p) - 2; j >= 0; j-- {
		q = float64(q*v) + p[j]
	}
	return q
}

// pow32 is x^y for a float32 x (steps 1-3 above).
func pow32(x float32, y float64) float32 {
	nan := float32(math.NaN())
	inf := math.Inf(1)
	isInt := y == math.Floor(y) && !math.IsInf(y, 0)
	odd := isInt && math.Abs(y) < 1<<53 && math.Mod(y, 2) != 0
	switch {
	// Step 1.
	case y == 0, x == 1:
		return 1
	case x != x, y != y:
		return nan
	// Step 2.
	case isInt && math.Abs(y) <= 16:
		p, b := 1.0, float64(x)
		for m := uint(math.Abs(y)); m > 0; m >>= 1 {
			if m&1 == 1 {
				p *= b
			}
			if m > 1 {
				b *= b
			}
		}
		if y < 0 {
			p = 1 / p
		}
		return float32(p)
	case y == 0.5 || y == -0.5:
		var s float64
		switch {
		case x == 0:
			s = 0
		case math.IsInf(float64(x), 0):
			s = inf
		case x < 0:
			return nan
		default:
			s = math.Sqrt(float64(x))
		}
		if y < 0 {
			s = 1 / s
		}
		return float32(s)
	// Step 1 again: zeros, infinities, negative bases.
	case x == 0:
		switch {
		case y < 0 && odd:
			return float32(math.Copysign(inf, float64(x)))
		case y < 0:
			return float32(inf)
		case odd:
			return x
		}
		return 0
	case math.IsInf(y, 0):
		a := math.Abs(float64(x))
		if a == 1 {
			return 1
		}
		if (a < 1) == (y > 0) {
			return 0
		}
		return float32(inf)
	case math.IsInf(float64(x), 0):
		v := inf
		if y < 0 {
			v = 0
		}
		if x < 0 && odd {
			v = -v
		}
		return float32(v)
	case x < 0 && !isInt:
		return nan
	}
	// Step 3.
	bits := math.Float32bits(float32(math.Abs(float64(x))))
	k := 0
	if bits < 0x00800000 { // subnormal: times 2^23
		bits = math.Float32bits(math.Float32frombits(bits) * 0x1p23)
		k = -23
	}
	d := int32(bits - 0x3f330000)
	k += int(d >> 23)
	i := (d >> 19) & 15
	z := float64(math.Float32frombits(bits - uint32(d)&0xff800000))
	r := float64(z*pow32InvC[i]) - 1
	log2x := float64(k) + pow32LogC[i] + float64(r*horner64(pow32LogPoly, r))
	t := y * log2x
	var v float64
	switch {
	case t >= 129:
		v = inf
	case t <= -151:
		v = 0
	default:
		n := math.RoundToEven(t * 32) // t*32 is exact
		s := t - n/32
		j := int(n) & 31
		sc := math.Ldexp(pow32Exp2[j], int(math.Floor(n/32)))
		v = float64(sc*float64(s*horner64(pow32ExpPoly, s))) + sc
	}
	if x < 0 && odd {
		v = -v
	}
	return float32(v)
}
