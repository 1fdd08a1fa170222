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
