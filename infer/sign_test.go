package infer

import "testing"

func TestDimSign(t *testing.T) {
	N, H := Sym("N"), Sym("H")
	for _, tc := range []struct {
		d    Dim
		want int
	}{
		{Const(3), 1}, {Const(0), 0}, {Const(-2), -1},
		{N.Add(Const(1)), 1}, {N.Neg().Sub(Const(1)), -1}, {N.Sub(Const(1)), 0},
		{N.Mul(H).Add(Const(2)), 1}, {N.Sub(H).Add(Const(1)), 0}, {N, 0},
		{H.Sub(Const(1)).FloorDiv(Const(2)).Add(Const(1)), 1},
	} {
		if got := tc.d.Sign(); got != tc.want {
			t.Errorf("Sign(%v) = %d, want %d", tc.d, got, tc.want)
		}
	}
}
