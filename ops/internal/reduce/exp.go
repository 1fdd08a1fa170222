package reduce

import "math"

// exp32 is the float32 exponential of the softmax family, the algorithm
// the reference engine defines (reference/exp32.go, where its steps and
// its bound are explained): x clamped to [-104, 89]; k = x*log2(e)
// rounded; r = x - k*ln2Hi - k*ln2Lo; p = exp(r) by Horner's rule on 1 + r
// + r^2*P(r), P Cephes' degree-5 polynomial; p*2^k1*2^k2, k1 = floor(k/2).
// Each step is one float32 addition or fused multiply-add (fma32), so the
// vector kernels (exp_amd64.s), which run the same operations with FMA
// instructions, give the same bits.
func exp32(x float32) float32 {
	if x != x {
		return x
	}
	x = min(max(x, exp32Min), exp32Max)
	k := fma32(x, exp32Log2e, exp32Round) - exp32Round
	r := fma32(-k, exp32Ln2Hi, x)
	r = fma32(-k, exp32Ln2Lo, r)
	p := exp32Poly[0]
	for _, c := range exp32Poly[1:] {
		p = fma32(p, r, c)
	}
	k1 := int32(k) >> 1
	k2 := int32(k) - k1
	return float32(p*pow2(k1)) * pow2(k2)
}

// fma32 is a*b + c rounded once to float32, for finite a, b, c with a
// finite product: in float64 the product is exact, TwoSum gives the sum
// and its exact error, and the sum rounded to odd rounds to float32 as the
// exact one does (reference/exp32.go explains it).
func fma32(a, b, c float32) float32 {
	p := float64(float64(a) * float64(b)) // the conversion keeps Go from fusing
	cc := float64(c)
	s := p + cc
	bb := s - p
	e := (p - (s - bb)) + (cc - bb)
	if bits := math.Float64bits(s); e != 0 && bits&1 == 0 {
		if (e > 0) == (s > 0) {
			bits++
		} else {
			bits--
		}
		s = math.Float64frombits(bits)
	}
	return float32(s)
}

// pow2 is 2^k for a normal exponent k, from its bits.
func pow2(k int32) float32 {
	return math.Float32frombits(uint32(k+exp32Bias) << 23)
}

// exp32's constants.
const (
	exp32Min   = float32(-104)
	exp32Max   = float32(89)
	exp32Log2e = float32(1.44269504088896341)
	exp32Round = float32(12582912) // 1.5*2^23: adding it rounds to an integer
	exp32Ln2Hi = float32(0.693359375)
	exp32Ln2Lo = float32(-2.12194440e-4)
	exp32Bias  = 127
)

// exp32Poly is the Horner coefficients of exp(r), the highest degree
// first: P's six, then 1 and 1 (1 + r + r^2*P(r)).
var exp32Poly = [8]float32{1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1, 1, 1}

// expShiftedGo sets dst[i] to exp32(src[i] - m[i]) (m[0] for every i when
// perElement is false) and returns the sum of dst in the lane order: what
// the vector kernels compute, one element at a time.
func expShiftedGo(dst, src, m []float32, perElement bool) float32 {
	var p [lanes]float32
	dst = dst[:len(src)]
	for i, v := range src {
		mi := m[0]
		if perElement {
			mi = m[i]
		}
		e := exp32(v - mi)
		dst[i] = e
		p[i%lanes] += e
	}
	return combineLanes(&p)
}

// expShiftedRow sets dst[i] to exp32(src[i] - m), m the largest element
// of src, and returns the sum of dst in the lane order, sixteen lanes at a
// time where the processor has AVX-512 or AVX2 (expShifted: the same
// float32 operations, the same bits).
func expShiftedRow(dst, src []float32, m float32) float32 {
	var ms [lanes]float32
	for i := range ms {
		ms[i] = m
	}
	return expShifted(dst, src, ms[:], false)
}

// expShiftedEach sets dst[i] to exp32(src[i] - m[i]), m[i] at least
// src[i] (the largest of its slice), as expShiftedRow.
func expShiftedEach(dst, src, m []float32) {
	expShifted(dst, src, m[:len(src)], true)
}
