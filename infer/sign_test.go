package infer

import (
	"testing"

	"github.com/onnxshape/onnxshape/graph"
)

func TestDimSign(t *testing.T) {
	N, H := graph.Sym("N"), graph.Sym("H")
	for _, tc := range []struct {
		d    graph.Dim
		want int
	}{
		{graph.Const(3), 1}, {graph.Const(0), 0}, {graph.Const(-2), -1},
		{N.Add(graph.Const(1)), 1}, {N.Neg().Sub(graph.Const(1)), -1}, {N.Sub(graph.Const(1)), 0},
		{N.Mul(H).Add(graph.Const(2)), 1}, {N.Sub(H).Add(graph.Const(1)), 0}, {N, 0},
		{H.Sub(graph.Const(1)).FloorDiv(graph.Const(2)).Add(graph.Const(1)), 1},
	} {
		if got := tc.d.Sign(); got != tc.want {
			t.Errorf("Sign(%v) = %d, want %d", tc.d, got, tc.want)
		}
	}
}

func TestMaxMinBySign(t *testing.T) {
	N := graph.Sym("N")
	if got := N.Add(graph.Const(1)).Max(N).String(); got != "N+1" {
		t.Errorf("max(N+1,N) = %s", got)
	}
	if got := N.Min(N.Add(graph.Const(2))).String(); got != "N" {
		t.Errorf("min(N,N+2) = %s", got)
	}
	if got := N.Max(graph.Const(0)).String(); got != "N" {
		t.Errorf("max(N,0) = %s", got)
	}
}

func TestMaxMinUndecided(t *testing.T) {
	N, H := graph.Sym("N"), graph.Sym("H")
	if got := N.Max(H).String(); got != "max(H,N)" {
		t.Errorf("max(N,H) = %s", got)
	}
	if got := N.Sub(graph.Const(1)).Max(graph.Const(0)).String(); got != "max(0,N-1)" {
		t.Errorf("max(N-1,0) = %s", got)
	}
}
