package graph

import (
	"math"
	"testing"
)

func TestDimArithmetic(t *testing.T) {
	N, H, W := Sym("N"), Sym("H"), Sym("W")
	c := Const
	for _, tc := range []struct {
		got  Dim
		want string
	}{
		{c(3), "3"},
		{Dim{}, "0"},
		{N, "N"},
		{H.Mul(W), "H*W"},
		{W.Mul(H), "H*W"},
		{N.Mul(H.Add(c(1))), "H*N+N"},
		{H.Mul(N).Add(N), "H*N+N"},
		{N.Add(c(2)).Sub(c(2)), "N"},
		{N.Sub(N), "0"},
		{c(2).Mul(N).Add(c(1)), "2*N+1"},
		{c(1).Sub(N), "-N+1"},
		// Conv / pooling output: floor((H + pads - dilated kernel) / stride) + 1.
		{H.Add(c(2)).Sub(c(3)).FloorDiv(c(2)).Add(c(1)), "floor((H-1)/2)+1"},
		{H.Add(c(2)).Sub(c(3)).FloorDiv(c(1)).Add(c(1)), "H"},
		{c(4).Mul(H).FloorDiv(c(2)), "2*H"},
		{H.Mul(W).FloorDiv(H.Mul(W)), "1"},
		{H.CeilDiv(c(2)), "ceil(H/2)"},
		{c(7).CeilDiv(c(2)), "4"},
		{c(-7).FloorDiv(c(2)), "-4"},
		{c(-7).Mod(c(3)), "2"},
		{c(6).Mul(N).Mod(c(3)), "0"},
		{N.Mod(c(3)), "(N mod 3)"},
		{N.FloorDiv(c(2).Mul(H)), "floor(N/(2*H))"},
		{N.Max(H), "max(H,N)"},
		{H.Max(N), "max(H,N)"},
		{N.Min(N), "N"},
		{c(3).Max(c(5)), "5"},
		{N.Add(N).Add(N), "3*N"},
		{N.Mul(N), "N*N"},
	} {
		if s := tc.got.String(); s != tc.want {
			t.Errorf("got %s, want %s", s, tc.want)
		}
	}
	if !N.Mul(H.Add(c(1))).Equal(H.Mul(N).Add(N)) {
		t.Error("N*(H+1) and H*N+N should be equal")
	}
	if N.Equal(H) {
		t.Error("N and H should differ")
	}
	if v, ok := c(6).Mul(c(7)).Value(); !ok || v != 42 {
		t.Errorf("6*7 = %v %v", v, ok)
	}
	if _, ok := N.Value(); ok {
		t.Error("N has no value")
	}
	if got := H.Mul(W).Add(N).Symbols(); len(got) != 3 || got[0] != "H" || got[2] != "W" {
		t.Errorf("symbols %v", got)
	}
}

// Arithmetic that overflows int64 stays an expression instead of wrapping.
func TestDimOverflow(t *testing.T) {
	big := Const(math.MaxInt64)
	if _, ok := big.Add(Const(1)).Value(); ok {
		t.Error("MaxInt64+1 must not be a number")
	}
	if _, ok := big.Mul(Const(2)).Value(); ok {
		t.Error("MaxInt64*2 must not be a number")
	}
	if _, ok := Const(math.MinInt64).Neg().Value(); ok {
		t.Error("-MinInt64 must not be a number")
	}
	if v, ok := Const(math.MaxInt64).Sub(Const(1)).Value(); !ok || v != math.MaxInt64-1 {
		t.Errorf("MaxInt64-1 = %v %v", v, ok)
	}
}
