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

func TestMaxMinBySign(t *testing.T) {
	N := Sym("N")
	if got := N.Add(Const(1)).Max(N).String(); got != "N+1" {
		t.Errorf("max(N+1,N) = %s", got)
	}
	if got := N.Min(N.Add(Const(2))).String(); got != "N" {
		t.Errorf("min(N,N+2) = %s", got)
	}
	if got := N.Max(Const(0)).String(); got != "N" {
		t.Errorf("max(N,0) = %s", got)
	}
}

func TestMaxMinUndecided(t *testing.T) {
	N, H := Sym("N"), Sym("H")
	if got := N.Max(H).String(); got != "max(H,N)" {
		t.Errorf("max(N,H) = %s", got)
	}
	if got := N.Sub(Const(1)).Max(Const(0)).String(); got != "max(0,N-1)" {
		t.Errorf("max(N-1,0) = %s", got)
	}
}
