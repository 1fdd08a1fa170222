package conv

import (
	"math/rand/v2"
	"testing"
)

// The implicit GEMM (float32) against the definition: random one- and
// two-axis convolutions (groups, every pad, stride and dilation from 0-3,
// images narrower than the kernel, odd sizes, tiles cut anywhere, 1-3
// cores), on small integers, whose float32 sums are exact: the result
// must equal the definition's bit for bit.
func TestImplicitMatchesTheDefinition(t *testing.T) {
	defer func(i int) { implicitTile = i }(implicitTile)
	r := rand.New(rand.NewPCG(21, 22))
	n := 400
	if testing.Short() {
		n = 100
	}
	ran := 0
	defer func() {
		if ran < n/4 {
			t.Errorf("only %d of %d convolutions took the implicit path", ran, n)
		}
	}()
	for iter := range n {
		var s Shape
		if r.IntN(2) == 0 {
			s = randShape(r)
			if len(s.Kernel) > 2 {
				continue
			}
		} else {
			rank := 1 + r.IntN(2)
			s = Shape{N: 1 + r.IntN(2), Group: 1 + r.IntN(3)}
			s.C, s.M = s.Group*(1+r.IntN(9)), s.Group*(1+r.IntN(20))
			for range rank {
				k, st, d, p := 1+r.IntN(4), 1+r.IntN(3), 1+r.IntN(3), r.IntN(4)
				in := max(1, (k-1)*d+1-2*p) + r.IntN(40)
				out := (in+2*p-(k-1)*d-1)/st + 1
				if out < 1 {
					in += 1 - out*st
					out = (in+2*p-(k-1)*d-1)/st + 1
				}
				s.Image, s.Grid, s.Kernel = append(s.Image, in), append(s.Grid, out), append(s.Kernel, k)
				s.Stride, s.Dilation, s.Pad = append(s.Stride, st), append(s.Dilation, d), append(s.Pad, p)
			}
		}
		if !implicit[float32](s) {
			continue
		}
		ran++
		implicitTile = []int{512, 1 + r.IntN(100), 32, 33}[r.IntN(4)]
		x := randInts(r, s.N*s.C*prod(s.Image), -3, 3)
		w := randInts(r, s.M*(s.C/s.Group)*prod(s.Kernel), -3, 3)
		b := randInts(r, s.M, -3, 3)
		if r.IntN(3) == 0 {
			b = nil
		}
		y := make([]float32, s.N*s.M*prod(s.Grid))
		for i := range y {
			y[i] = float32(nan64())
		}
		x32 := to32(x)
		if err := Forward(Config{Threads: 1 + r.IntN(3)}, s, x32, to32(w), to32(b), y); err != nil {
			t.Fatal(err)
		}
		want := naiveForward(s, x, w, b)
		for i := range want {
			if float64(y[i]) != want[i] {
				t.Fatalf("%d: %+v (tile %d): element %d is %v, want %v", iter, s, implicitTile, i, y[i], want[i])
			}
		}
		for i := range x {
			if float64(x32[i]) != x[i] {
				t.Fatalf("%d: X written", iter)
			}
		}
	}
}

func nan64() float64 { var z float64; return z / z }

// The vector window writer against the Go one: random geometries of
// stride 1 along the row (pads, dilations, row strides, images narrower
// than the kernel, blocks of k cut anywhere, positions cut anywhere),
// the panels compared bit for bit, the padding lanes included.
func TestWindowsVecMatchesGo(t *testing.T) {
	if !vecWindows {
		t.Skip("no vector window writer here")
	}
	r := rand.New(rand.NewPCG(23, 24))
	for iter := range 300 {
		g := dwGeometry{kh: 1 + r.IntN(4), kw: 1 + r.IntN(4), sh: 1 + r.IntN(3), sw: 1, dh: 1 + r.IntN(2), dw: 1 + r.IntN(3),
			ph: r.IntN(3), pw: r.IntN(3)}
		g.ih, g.iw = max(1, (g.kh-1)*g.dh+1-2*g.ph)+r.IntN(20), max(1, (g.kw-1)*g.dw+1-2*g.pw)+r.IntN(70)
		g.oh = (g.ih+2*g.ph-(g.kh-1)*g.dh-1)/g.sh + 1
		g.ow = g.iw + 2*g.pw - (g.kw-1)*g.dw
		cg := 1 + r.IntN(6)
		k := cg * g.kh * g.kw
		xg := make([]float32, cg*g.ih*g.iw)
		for i := range xg {
			xg[i] = float32(i + 1)
		}
		pout := g.oh * g.ow
		q0 := r.IntN(pout)
		nc := 1 + r.IntN(pout-q0)
		pc := r.IntN(k)
		kc := 1 + r.IntN(k-pc)
		size := (nc + 31) / 32 * 32 * kc
		want, got := make([]float32, size), make([]float32, size)
		for i := range want {
			want[i], got[i] = -1, -2
		}
		vecWindows = false
		fillWindows(want, 32, pc, kc, q0, nc, xg, g)
		vecWindows = true
		fillWindows(got, 32, pc, kc, q0, nc, xg, g)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%d: %+v cg %d rows [%d,%d) positions [%d,%d): element %d (row %d, column %d) is %v, want %v",
					iter, g, cg, pc, pc+kc, q0, q0+nc, i, i/32%kc, i/32/kc*32+i%32, got[i], want[i])
			}
		}
	}
}

// The implicit GEMM with the Go window writer (the vector one is the
// default where there is one).
func TestImplicitGoWindows(t *testing.T) {
	defer func(v bool) { vecWindows = v }(vecWindows)
	vecWindows = false
	TestImplicitMatchesTheDefinition(t)
}
