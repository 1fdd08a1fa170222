package conv

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/onnxshape/onnxshape/ops/internal/gemm"
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
// stride 1 and 2 along the row (pads, dilations, row strides, images narrower
// than the kernel, blocks of k cut anywhere, positions cut anywhere),
// the panels compared bit for bit, the padding lanes included.
func TestWindowsVecMatchesGo(t *testing.T) {
	if !vecWindows {
		t.Skip("no vector window writer here")
	}
	vec2 := vecWindows2
	defer func() { vecWindows, vecWindows2 = true, vec2 }()
	r := rand.New(rand.NewPCG(23, 24))
	for iter := range 300 {
		g := dwGeometry{kh: 1 + r.IntN(4), kw: 1 + r.IntN(4), sh: 1 + r.IntN(3), sw: 1 + iter%2, dh: 1 + r.IntN(2), dw: 1 + r.IntN(3),
			ph: r.IntN(3), pw: r.IntN(3)}
		if g.sw == 2 && !vec2 {
			continue
		}
		g.ih, g.iw = max(1, (g.kh-1)*g.dh+1-2*g.ph)+r.IntN(20), max(1, (g.kw-1)*g.dw+1-2*g.pw)+r.IntN(70)
		g.oh = (g.ih+2*g.ph-(g.kh-1)*g.dh-1)/g.sh + 1
		g.ow = (g.iw+2*g.pw-(g.kw-1)*g.dw-1)/g.sw + 1
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
		vecWindows, vecWindows2 = false, false
		fillWindows(want, 32, pc, kc, q0, nc, xg, g)
		vecWindows, vecWindows2 = true, vec2
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
	defer func(v, v2 bool) { vecWindows, vecWindows2 = v, v2 }(vecWindows, vecWindows2)
	vecWindows, vecWindows2 = false, false
	TestImplicitMatchesTheDefinition(t)
}

// A 1x1 convolution cut into tiles of positions (balancedTile) gives the
// bits of one product per image followed by the bias, on 1-3 cores, for
// random float32 data (the tiles do not change a sum's order).
func TestPointwiseTilesKeepTheBits(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 26))
	for iter := range 30 {
		h, w := 1+r.IntN(60), 1+r.IntN(60)
		s := Shape{N: 1 + r.IntN(3), Group: 1 + r.IntN(2), Image: []int{h, w}, Grid: []int{h, w}, Kernel: []int{1, 1},
			Stride: []int{1, 1}, Dilation: []int{1, 1}, Pad: []int{0, 0}}
		s.C, s.M = s.Group*(1+r.IntN(70)), s.Group*(1+r.IntN(300))
		cg, mg, p := s.C/s.Group, s.M/s.Group, h*w
		x, wt, b := randF32(r, s.N*s.C*p), randF32(r, s.M*cg), randF32(r, s.M)
		y := make([]float32, s.N*s.M*p)
		if err := Forward(Config{Threads: 1 + r.IntN(3)}, s, x, wt, b, y); err != nil {
			t.Fatal(err)
		}
		want := make([]float32, len(y))
		for n := range s.N {
			for g := range s.Group {
				yg := want[(n*s.M+g*mg)*p:]
				if err := gemm.Float32(gemm.Config{}, false, false, mg, p, cg, 1, wt[g*mg*cg:], cg, x[(n*s.C+g*cg)*p:], p, 0, yg, p); err != nil {
					t.Fatal(err)
				}
				for i := range mg {
					for j := range p {
						yg[i*p+j] += b[g*mg+i]
					}
				}
			}
		}
		for i := range want {
			if math.Float32bits(y[i]) != math.Float32bits(want[i]) {
				t.Fatalf("%d: %+v: element %d is %v, want %v", iter, s, i, y[i], want[i])
			}
		}
	}
}

// The vector bias add against the scalar one: every width, tails too.
func TestAddRows32(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 28))
	for n := range 70 {
		rows, ld := 1+r.IntN(4), n+r.IntN(5)
		y, b := randF32(r, rows*ld+n), randF32(r, rows)
		want := slices.Clone(y)
		for i := range rows {
			for j := range n {
				want[i*ld+j] += b[i]
			}
		}
		if !addRows32(y, b, ld, n) {
			t.Skip("no vector add here")
		}
		if !slices.Equal(y, want) {
			t.Fatalf("n %d: got %v, want %v", n, y, want)
		}
	}
}

func randF32(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}
