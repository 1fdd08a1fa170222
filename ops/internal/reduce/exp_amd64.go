//go:build amd64 && !purego

package reduce

import (
	"math"

	"golang.org/x/sys/cpu"
)

// haveExpAVX2 reports a processor that runs expShifted8 and divideBy8.
var haveExpAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// expShiftedBlocks is expShifted8, or expShifted8AVX512 where the processor
// has AVX-512 (half the instructions: eight float64 lanes a register).
var expShiftedBlocks = func() func(dst, src *float32, n int, m float32, consts *[22][4]uint64) int {
	if cpu.X86.HasAVX512F {
		return expShifted8AVX512
	}
	return expShifted8
}()

// expDegree is the degree of the Taylor polynomial of exp(r) in the block
// kernels, and halfwayMargin how near (in units of the float64 result's
// last place) a point half-way between two float32s a result must lie to
// be left to math.Exp. The bound that makes them safe, for |r| <= ln(2)/2
// (k is the nearest integer to x/ln 2; x/ln 2's own rounding adds ~1e-14):
//
//   - truncation: the remainder is exp(t) r^11/11! for a t between 0 and r,
//     so relative to exp(r) at most e^(2|r|) |r|^11/11! <= 2 * 0.34658^11 /
//     39916800 < 4.4e-13;
//   - the polynomial's value p = exp(r) lies in [0.70, 1.42], where a unit
//     in the last place is 2^-53 or 2^-52: the truncation is at most
//     1.42 * 4.4e-13 / 2^-53 < 5700 units; multiplying by 2^k is exact
//     (results are normal float64s in the range the kernels take);
//   - rounding: r = x - k*ln2Hi - k*ln2Lo, two FMAs each rounding once
//     (|r| < 0.35: 2^-55 each), errs by at most 2^-54, so p by under one
//     unit; the coefficients 1/n!, each within 2^-53 of itself, by under
//     e^|r| * 2^-53, 1.5 units; the ten Horner FMAs by under 2 units (each
//     rounds half a unit of a partial sum that later steps shrink by |r|):
//     together under 16 units, a generous allowance.
//
// So the float64 result is within 5716 < 8192 = 2^13 units of exp(x): if it
// is 2^13 units or more from every half-way point (its 29 bits that float32
// rounding drops are not within 2^13 of 2^28), it rounds to the float32 that
// exp(x) rounds to, as math.Exp's result (under a unit from exp(x)) does.
// A lane falls back with a chance of about 2^14/2^29, a block of eight
// about one in four thousand. TestExpShiftedRow's sweep (and with -exp.all
// every float32 of [-87.3, 88.7]) checks it against math.Exp.
const (
	expDegree     = 10
	halfwayMargin = 1 << 13
)

// expConsts are the constants of the block kernels, each four times: 1/ln
// 2, the number whose addition rounds to an integer, ln 2 in two parts, the
// coefficients 1/10!, ..., 1/1!, 1/0! of exp's Taylor polynomial, then what
// the rounding check (the dropped bits' mask, 2^28 - halfwayMargin, -1,
// 2*halfwayMargin) and the range need.
var expConsts = func() (c [22][4]uint64) {
	f := math.Float64bits
	v := []uint64{f(invLn2), f(roundMag), f(ln2Hi), f(ln2Lo)}
	fact := 1.0
	coef := make([]uint64, expDegree+1)
	for i := range expDegree + 1 {
		if i > 0 {
			fact *= float64(i)
		}
		coef[expDegree-i] = f(1 / fact)
	}
	v = append(v, coef...)
	v = append(v, f(roundMag), 1<<29-1, 1<<28-halfwayMargin, 1<<64-1, 2*halfwayMargin, f(-87.3), f(88.7))
	for k, x := range v {
		c[k] = [4]uint64{x, x, x, x}
	}
	return c
}()

//go:noescape
func expShifted8(dst, src *float32, n int, m float32, consts *[22][4]uint64) int

//go:noescape
func expShifted8AVX512(dst, src *float32, n int, m float32, consts *[22][4]uint64) int

//go:noescape
func max8(x *float32, n int) (m float32, nan bool)

//go:noescape
func expShiftedEach8(dst, src, m *float32, n int, consts *[22][4]uint64) int

//go:noescape
func divideBy8(y *float32, n int, s float32)

// expShiftedRow sets dst[i] to float32(math.Exp(float64(src[i] - m))), the
// same bits, eight at a time where the processor has AVX2 and FMA: exp(x) =
// 2^k * exp(r), k the nearest integer to x/ln 2, exp(r) (|r| <= ln(2)/2)
// by its Taylor polynomial of degree 10, all in float64. That result is
// within 5716 units in the last place of exp(x) (expDegree proves it), so
// it rounds to the float32 math.Exp's rounds to unless it lies within 2^13
// units of a point half-way between two float32s: such blocks (a lane in
// about 30,000) and x outside [-87.3, 88.7] (results that are not normal
// float32s, NaN) go to math.Exp.
func expShiftedRow(dst, src []float32, m float32) {
	i, n := 0, len(src)
	dst = dst[:n]
	if haveExpAVX2 {
		n8 := n &^ 7
		for i < n8 {
			i += expShiftedBlocks(&dst[i], &src[i], n8-i, m, &expConsts)
			if i < n8 {
				for k := i; k < i+8; k++ {
					dst[k] = float32(math.Exp(float64(src[k] - m)))
				}
				i += 8
			}
		}
	}
	for ; i < n; i++ {
		dst[i] = float32(math.Exp(float64(src[i] - m)))
	}
}

// expShiftedEach sets dst[i] to float32(math.Exp(float64(src[i] - m[i]))),
// the same bits, eight at a time as expShiftedRow.
func expShiftedEach(dst, src, m []float32) {
	i, n := 0, len(src)
	dst, m = dst[:n], m[:n]
	if haveExpAVX2 {
		n8 := n &^ 7
		for i < n8 {
			i += expShiftedEach8(&dst[i], &src[i], &m[i], n8-i, &expConsts)
			if i < n8 {
				for k := i; k < i+8; k++ {
					dst[k] = float32(math.Exp(float64(src[k] - m[k])))
				}
				i += 8
			}
		}
	}
	for ; i < n; i++ {
		dst[i] = float32(math.Exp(float64(src[i] - m[i])))
	}
}

// rowMax is reduceRow's Max of a non-empty float32 row, eight at a time
// where the processor has AVX2: the largest element, the first NaN if
// there is one, and of equal elements (+0 and -0) the first.
func rowMax(x []float32) float32 {
	n8 := len(x) &^ 7
	if !haveExpAVX2 || n8 == 0 {
		return reduceRow(Op{Kind: Max}, x)
	}
	m, nan := max8(&x[0], n8)
	if nan {
		return reduceRow(Op{Kind: Max}, x)
	}
	for _, v := range x[n8:] {
		if v > m || v != v {
			return reduceRow(Op{Kind: Max}, x)
		}
	}
	if m == 0 { // the scalar loop keeps the first of +0 and -0
		for _, v := range x {
			if v == 0 {
				return v
			}
		}
	}
	return m
}

// divideRow sets y[i] to y[i] / s, eight at a time where the processor has
// AVX2 (each quotient rounds as a scalar division does).
func divideRow(y []float32, s float32) {
	i := 0
	if haveExpAVX2 {
		i = len(y) &^ 7
		if i > 0 {
			divideBy8(&y[0], i, s)
		}
	}
	for ; i < len(y); i++ {
		y[i] /= s
	}
}
