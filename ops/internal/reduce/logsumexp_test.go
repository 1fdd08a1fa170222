package reduce

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLogSumExpBound checks the float32 LogSumExp of random rows of
// several lengths, over the last axis and over a first axis, against the
// log-sum-exp computed in float64: within ulp(y)/2 + (n/2 + 6) * 2^-24,
// the bound reference/reducelogsumexp.go states; and the two layouts and
// the plain loops (the vector kernels off) give the same bits.
func TestLogSumExpBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 26))
	worst := 0.0
	for _, n := range []int{1, 2, 7, 16, 17, 112, 255, 1000, 4099} {
		for _, spread := range []float64{1, 10, 60} {
			const rows = 37
			x := make([]float32, rows*n)
			for i := range x {
				x[i] = float32((rng.Float64()*2 - 1) * spread)
			}
			// Rows: [rows, n] over the last axis; columns: the transpose,
			// [n, rows] over the first.
			xt := make([]float32, len(x))
			for r := range rows {
				for j := range n {
					xt[j*rows+r] = x[r*n+j]
				}
			}
			y := make([]float32, rows)
			if err := Run(Op{Kind: LogSumExp}, Layout{Outer: rows, N: n, Inner: 1}, x, y, Serial); err != nil {
				t.Fatal(err)
			}
			yc := make([]float32, rows)
			if err := Run(Op{Kind: LogSumExp}, Layout{Outer: 1, N: n, Inner: rows}, xt, yc, Serial); err != nil {
				t.Fatal(err)
			}
			for r := range rows {
				row := x[r*n : (r+1)*n]
				if plain := reduceRow(Op{Kind: LogSumExp}, row); y[r] != plain || yc[r] != plain {
					t.Fatalf("n %d row %d: rows give %v, columns %v, the plain loop %v", n, r, y[r], yc[r], plain)
				}
				m := math.Inf(-1)
				for _, v := range row {
					m = math.Max(m, float64(v))
				}
				s := 0.0
				for _, v := range row {
					s += math.Exp(float64(v) - m)
				}
				exact := m + math.Log(s)
				ulp := float64(math.Nextafter32(float32(math.Abs(exact)), float32(math.Inf(1))) - float32(math.Abs(exact)))
				bound := ulp/2 + (float64(n)/2+6)*0x1p-24
				if e := math.Abs(float64(y[r]) - exact); e > bound {
					t.Fatalf("n %d spread %v row %d: %v, exact %v: error %g above the bound %g", n, spread, r, y[r], exact, e, bound)
				} else {
					worst = max(worst, e/bound)
				}
			}
		}
	}
	t.Logf("largest error %.3f of the bound", worst)
}

// TestLogSumExpSpecials checks outputs whose largest element is not
// finite, in both layouts: +inf gives +inf, -inf only -inf, a NaN NaN.
func TestLogSumExpSpecials(t *testing.T) {
	inf := float32(math.Inf(1))
	nan := float32(math.NaN())
	for _, c := range []struct {
		row  []float32
		want float32
	}{
		{[]float32{1, inf, 2}, inf},
		{[]float32{-inf, -inf}, -inf},
		{[]float32{1, nan, 3}, nan},
		{[]float32{-inf, 0}, 0},
	} {
		n := len(c.row)
		x := make([]float32, 0, 20*n)
		for range 20 {
			x = append(x, c.row...)
		}
		xt := make([]float32, len(x))
		for r := range 20 {
			for j := range n {
				xt[j*20+r] = x[r*n+j]
			}
		}
		y, yc := make([]float32, 20), make([]float32, 20)
		if err := Run(Op{Kind: LogSumExp}, Layout{Outer: 20, N: n, Inner: 1}, x, y, Serial); err != nil {
			t.Fatal(err)
		}
		if err := Run(Op{Kind: LogSumExp}, Layout{Outer: 1, N: n, Inner: 20}, xt, yc, Serial); err != nil {
			t.Fatal(err)
		}
		for r := range 20 {
			same := func(a, b float32) bool { return a == b || (a != a && b != b) }
			if !same(y[r], c.want) || !same(yc[r], c.want) {
				t.Fatalf("%v: rows give %v, columns %v, want %v", c.row, y[r], yc[r], c.want)
			}
		}
	}
}
