package reference

import "math"

// exp32 is the exponential of Softmax and LogSoftmax in float32 (float16
// and bfloat16 are computed in float32) under ONNX's rules: ONNX fixes no
// accuracy for it, and onnxshape fixes this algorithm, so that a result
// has the same bits on every machine and in both engines and a vector unit
// runs sixteen lanes at once. Every step is one IEEE float32 operation
// rounded to nearest even: an addition, or a fused multiply-add (fma32:
// a*b + c rounded once, as the processors' FMA instructions do). Steps:
//
//  1. NaN gives itself. x is clamped to [-104, 89]: below -104 the exact
//     exponential is under half the smallest subnormal (2^-150 = e^-103.97)
//     and rounds to 0, above 89 it exceeds the largest float32 (e^88.72).
//  2. k = x*log2(e) rounded to an integer: fma32(x, log2(e), 1.5*2^23)
//     minus 1.5*2^23 (adding 1.5*2^23 rounds to an integer).
//  3. r = x - k*ln2Hi - k*ln2Lo by two fma32, Cody and Waite's reduction
//     (ln2Hi = 0.693359375 has 9 significant bits, so for |k| <= 150 the
//     first one is exact); |r| <= ln(2)/2 (about 0.35) nearly.
//  4. p = exp(r) by Horner's rule in fma32 on 1 + r + r^2*P(r), P the
//     degree-5 polynomial of Cephes' expf (Moshier; coefficients below):
//     ((((((P0 r + P1) r + ... + P5) r + 1) r + 1.
//  5. p*2^k as (p*2^k1)*2^k2, k1 = floor(k/2), k2 = k - k1, each power of
//     two built from its exponent bits: the first product is exact and
//     normal, the second rounds once, into the subnormals or to infinity
//     where the result lies there. (A single correctly rounded p*2^k, as
//     AVX-512's VSCALEFPS, is the same number.)
//
// Measured over every float32 in [-104, 88.72] against float64 math.Exp
// (TestExp32Bound with -exp32.all): within 0.895 units in the last place,
// so faithfully rounded everywhere (one of the two float32 around the
// exact value), and the correctly rounded float32 for 99.54% of the
// inputs. float32(math.Exp) is correctly rounded nearly everywhere, but
// costs a float64 exponential per element, which vector units run at half
// the lanes and, to keep the bits, with a rounding check.
func exp32(x float32) float32 {
	if x != x {
		return x
	}
	if x < -104 {
		x = -104
	}
	if x > 89 {
		x = 89
	}
	const (
		log2e = float32(1.44269504088896341)
		round = float32(12582912) // 1.5*2^23
		ln2Hi = float32(0.693359375)
		ln2Lo = float32(-2.12194440e-4)
	)
	k := fma32(x, log2e, round) - round
	r := fma32(-k, ln2Hi, x)
	r = fma32(-k, ln2Lo, r)
	p := float32(1.9875691500e-4)
	for _, c := range []float32{1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1, 1, 1} {
		p = fma32(p, r, c)
	}
	k1 := int32(k) >> 1
	k2 := int32(k) - k1
	return float32(p*pow2(k1)) * pow2(k2)
}

// pow2 is 2^k for a normal exponent k, from its bits.
func pow2(k int32) float32 {
	return math.Float32frombits(uint32(k+127) << 23)
}

// fma32 is a*b + c rounded once to float32 (to nearest, ties to even), for
// finite a, b, c whose product is finite. In float64 the product is exact
// (24+24 bits) and TwoSum gives the sum s and its exact error e; s rounded
// to odd (its last bit set when e is not 0 and the bit is clear, moving
// toward e) then rounds to float32 as the exact sum does, since float64
// has more than 24+1 bits (rounding to odd first is innocuous then).
func fma32(a, b, c float32) float32 {
	p := float64(float64(a) * float64(b)) // the conversion keeps Go from fusing
	cc := float64(c)
	s := p + cc
	bb := s - p
	e := (p - (s - bb)) + (cc - bb)
	if bits := math.Float64bits(s); e != 0 && e == e && bits&1 == 0 { // e is NaN where an operand or the product is infinite: s is the IEEE result then
		if (e > 0) == (s > 0) {
			bits++ // away from zero, toward e
		} else {
			bits--
		}
		s = math.Float64frombits(bits)
	}
	return float32(s)
}
