package quant

import "math"

// The int8 addition of a QDQ residual (ops' fused DequantizeLinear(a) +
// DequantizeLinear(b) [-> Relu] -> QuantizeLinear), the real sum written
// as QuantizeLinear writes it:
//
//	y = saturate(round_half_even((sa*(a-za) + sb*(b-zb)) / sy) + zy)
//
// in float64: each product exact (a float32 scale times at most nine bits),
// their sum rounded once (exact unless the scales are 2^20 apart), the
// quotient rounded once, so y is the real result correctly rounded but
// where the real quotient falls within about 2^-45 of a half-integer
// without being one. The rounding comes before the zero point is added,
// as QuantizeLinear orders them; a fused Relu raises the lower bound to zy
// (QuantizeLinear is monotone and maps 0 to zy). Clipping the quotient to
// [lo-zy, hi-zy] before rounding is the same as clipping after, the bounds
// being integers. On amd64 with AVX-512 (not under purego) add_amd64.s
// does sixteen elements a step with the same operations.

// AddParams are the scales and zero points of one fused addition (see
// NewAddParams).
type AddParams struct {
	sa, sb, sy float64
	lo, hi     float64 // the quotient's bounds: the output's range less zy
	za, zb, zy int32
	signed     int32 // the inputs' and output's type is int8
}

// NewAddParams makes the parameters of a fused addition of a (scale sa,
// zero point za) and b into y (sy, zy), every one of the three of the
// 8-bit type signed says; relu clips at zy. The scales must be finite and
// positive (the caller checks).
func NewAddParams(sa, sb, sy float32, za, zb, zy int32, signed, relu bool) *AddParams {
	lo, hi := Range(signed)
	if relu {
		lo = max(lo, float64(zy))
	}
	p := &AddParams{sa: float64(sa), sb: float64(sb), sy: float64(sy), lo: lo - float64(zy), hi: hi - float64(zy), za: za, zb: zb, zy: zy}
	if signed {
		p.signed = 1
	}
	return p
}

// One is the sum of one pair, a and b the inputs' values (sign-extended
// when int8); its low byte is the output.
func (p *AddParams) One(a, b int32) int32 {
	q := float64(float64(p.sa*float64(a-p.za))+float64(p.sb*float64(b-p.zb))) / p.sy
	q = max(p.lo, min(p.hi, q))
	return int32(math.RoundToEven(q)) + p.zy
}

// Add writes o[i], the sum of a[i] and b[i].
func Add[T Int8](p *AddParams, o, a, b []T) {
	a, b = a[:len(o)], b[:len(o)]
	v := addVector(p, o, a, b)
	for i := v; i < len(o); i++ {
		o[i] = T(p.One(int32(a[i]), int32(b[i])))
	}
}

// AddLeft writes o[i], the sum of a and b[i].
func AddLeft[T Int8](p *AddParams, o []T, a T, b []T) {
	for i, v := range b[:len(o)] {
		o[i] = T(p.One(int32(a), int32(v)))
	}
}

// AddRight writes o[i], the sum of a[i] and b.
func AddRight[T Int8](p *AddParams, o, a []T, b T) {
	for i, v := range a[:len(o)] {
		o[i] = T(p.One(int32(v), int32(b)))
	}
}
