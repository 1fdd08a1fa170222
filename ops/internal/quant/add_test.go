package quant

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// addExact is the fused addition in exact rationals: the real
// (sa*(a-za) + sb*(b-zb)) / sy rounded half to even, plus zy, saturated
// (and clipped at zy with relu).
func addExact(sa, sb, sy float32, a, b, za, zb, zy int32, signed, relu bool) int32 {
	num := new(big.Rat).Mul(new(big.Rat).SetFloat64(float64(sa)), big.NewRat(int64(a-za), 1))
	num.Add(num, new(big.Rat).Mul(new(big.Rat).SetFloat64(float64(sb)), big.NewRat(int64(b-zb), 1)))
	q := num.Quo(num, new(big.Rat).SetFloat64(float64(sy)))
	// round half to even: floor(q + 1/2), less one on an exact tie to odd.
	h := new(big.Rat).Add(q, big.NewRat(1, 2))
	fl := new(big.Int).Div(h.Num(), h.Denom()) // Euclidean: floor for a positive denominator
	if h.IsInt() && fl.Bit(0) == 1 {
		fl.Sub(fl, big.NewInt(1))
	}
	v := fl.Int64() + int64(zy)
	lo, hi := Range(signed)
	if relu {
		lo = max(lo, float64(zy))
	}
	return int32(max(int64(lo), min(int64(hi), v)))
}

// TestAddAgreesWithExact: the fused int8 addition (vector and Go paths)
// against exact rational arithmetic on random scales and zero points,
// including equal scales and exact ties.
func TestAddAgreesWithExact(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for it := range 400 {
		signed, relu := r.IntN(2) == 0, r.IntN(2) == 0
		scale := func() float32 { return float32(math.Ldexp(0.5+r.Float64(), -r.IntN(12))) }
		sa, sb, sy := scale(), scale(), scale()
		switch it % 4 {
		case 0:
			sb, sy = sa, sa // ties: halves of sa
			sy = sa * 2
		case 1:
			sy = float32(math.Ldexp(1, -r.IntN(10)))
		}
		lo, hi := int32(0), int32(255)
		if signed {
			lo, hi = -128, 127
		}
		z := func() int32 { return lo + int32(r.IntN(int(hi-lo+1))) }
		za, zb, zy := z(), z(), z()
		p := NewAddParams(sa, sb, sy, za, zb, zy, signed, relu)
		n := 2 + r.IntN(70)
		a, b := make([]int32, n), make([]int32, n)
		for i := range a {
			a[i], b[i] = z(), z()
		}
		want := make([]int32, n)
		for i := range want {
			want[i] = addExact(sa, sb, sy, a[i], b[i], za, zb, zy, signed, relu)
		}
		check := func(got []int32, path string) {
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("%d %s: scales %g %g %g zeros %d %d %d signed %v relu %v: %d + %d = %d, want %d",
						it, path, sa, sb, sy, za, zb, zy, signed, relu, a[i], b[i], got[i], want[i])
				}
			}
		}
		got := make([]int32, n)
		if signed {
			o, x, y := make([]int8, n), make([]int8, n), make([]int8, n)
			for i := range x {
				x[i], y[i] = int8(a[i]), int8(b[i])
			}
			Add(p, o, x, y)
			for i := range o {
				got[i] = int32(o[i])
			}
			check(got, "Add")
			// Left and Right: a broadcast scalar on either side.
			AddLeft(p, o[:1], x[0], y[:1])
			AddRight(p, o[1:2], x[1:2], y[1])
			if int32(o[0]) != want[0] || int32(o[1]) != want[1] {
				t.Fatalf("%d: AddLeft/AddRight %d %d, want %d %d", it, o[0], o[1], want[0], want[1])
			}
		} else {
			o, x, y := make([]uint8, n), make([]uint8, n), make([]uint8, n)
			for i := range x {
				x[i], y[i] = uint8(a[i]), uint8(b[i])
			}
			Add(p, o, x, y)
			for i := range o {
				got[i] = int32(o[i])
			}
			check(got, "Add")
		}
		for i := range got {
			got[i] = p.One(a[i], b[i])
			if !signed {
				got[i] &= 0xff
			}
		}
		check(got, "One")
	}
}
