package conv

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The engine against direct loops over the definition, on random shapes
// with tiles of 1 to 7 columns (so that every path crosses tile and row
// boundaries) on 1 and 3 cores. float64 sums of small integers are exact
// whatever the order, so the results must be equal.

func naiveForward(s Shape, x, w, b []float64) []float64 {
	cg, mg := s.C/s.Group, s.M/s.Group
	r := len(s.Kernel)
	pout := prod(s.Grid)
	y := make([]float64, s.N*s.M*pout)
	o, t, in := make([]int, r), make([]int, r), make([]int, r)
	for n := range s.N {
		for m := range s.M {
			g := m / mg
			for p := range pout {
				unravel(p, s.Grid, o)
				var sum float64
				if b != nil {
					sum = b[m]
				}
				for c := range cg {
					for k := range prod(s.Kernel) {
						unravel(k, s.Kernel, t)
						ok := true
						for a := range r {
							in[a] = o[a]*s.Stride[a] - s.Pad[a] + t[a]*s.Dilation[a]
							ok = ok && in[a] >= 0 && in[a] < s.Image[a]
						}
						if ok {
							sum += x[(n*s.C+g*cg+c)*prod(s.Image)+ravel(in, s.Image)] * w[(m*cg+c)*prod(s.Kernel)+k]
						}
					}
				}
				y[(n*s.M+m)*pout+p] = sum
			}
		}
	}
	return y
}

func naiveTranspose(s Shape, x, w []float64) []float64 {
	cg, mg := s.C/s.Group, s.M/s.Group
	r := len(s.Kernel)
	pin, pout := prod(s.Grid), prod(s.Image)
	y := make([]float64, s.N*s.M*pout)
	i, t, o := make([]int, r), make([]int, r), make([]int, r)
	for n := range s.N {
		for c := range s.C {
			g := c / cg
			for p := range pin {
				unravel(p, s.Grid, i)
				for m := range mg {
					for k := range prod(s.Kernel) {
						unravel(k, s.Kernel, t)
						ok := true
						for a := range r {
							o[a] = i[a]*s.Stride[a] - s.Pad[a] + t[a]*s.Dilation[a]
							ok = ok && o[a] >= 0 && o[a] < s.Image[a]
						}
						if ok {
							y[(n*s.M+g*mg+m)*pout+ravel(o, s.Image)] += x[(n*s.C+c)*pin+p] * w[(c*mg+m)*prod(s.Kernel)+k]
						}
					}
				}
			}
		}
	}
	return y
}

func unravel(p int, shape, out []int) {
	for a := len(shape) - 1; a >= 0; a-- {
		out[a] = p % shape[a]
		p /= shape[a]
	}
}

func ravel(idx, shape []int) int {
	p := 0
	for a := range shape {
		p = p*shape[a] + idx[a]
	}
	return p
}

func randInts(r *rand.Rand, n int, lo, hi int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = float64(lo + r.IntN(hi-lo+1))
	}
	return v
}

// randShape draws a convolution; out is the grid for the image (Forward).
func randShape(r *rand.Rand) Shape {
	rank := 1 + r.IntN(3)
	s := Shape{N: 1 + r.IntN(2), Group: 1 + r.IntN(3)}
	cg, mg := 1+r.IntN(3), 1+r.IntN(3)
	if r.IntN(3) == 0 {
		cg, mg = 1, 1
	}
	s.C, s.M = cg*s.Group, mg*s.Group
	pointwise := r.IntN(5) == 0
	for range rank {
		k, st, d, p := 1+r.IntN(3), 1+r.IntN(3), 1+r.IntN(2), r.IntN(3)
		if pointwise {
			k, st, p = 1, 1, 0
		}
		in := (k-1)*d + 1 + r.IntN(9)
		if r.IntN(4) == 0 {
			// An image narrower than the kernel, the pads making up the
			// rest: some taps reach no input position at all (Silero
			// VAD's depthwise convolutions).
			k = 2 + r.IntN(4)
			in = 1 + r.IntN(k)
			p = ((k-1)*d + 1 - in + 1) / 2
		}
		out := (in+2*p-(k-1)*d-1)/st + 1
		s.Image, s.Grid, s.Kernel = append(s.Image, in), append(s.Grid, out), append(s.Kernel, k)
		s.Stride, s.Dilation, s.Pad = append(s.Stride, st), append(s.Dilation, d), append(s.Pad, p)
	}
	return s
}

func TestForwardAndTransposeMatchTheDefinition(t *testing.T) {
	defer func(b, m, i int) { tileBytes, minTile, implicitTile = b, m, i }(tileBytes, minTile, implicitTile)
	r := rand.New(rand.NewPCG(1, 2))
	for iter := range 400 {
		tileBytes, minTile = 1, 1+r.IntN(7)
		implicitTile = 1 + r.IntN(70)
		s := randShape(r)
		cfg := Config{Threads: 1 + 2*r.IntN(2)}
		x := randInts(r, s.N*s.C*prod(s.Image), -3, 3)
		w := randInts(r, s.M*(s.C/s.Group)*prod(s.Kernel), -3, 3)
		b := randInts(r, s.M, -3, 3)
		if r.IntN(2) == 0 {
			b = nil
		}
		y := make([]float64, s.N*s.M*prod(s.Grid))
		if err := Forward(cfg, s, x, w, b, y); err != nil {
			t.Fatal(err)
		}
		want := naiveForward(s, x, w, b)
		for i := range want {
			if y[i] != want[i] {
				t.Fatalf("%d: Forward %+v: element %d is %v, want %v", iter, s, i, y[i], want[i])
			}
		}
		// The transposed convolution: x on the grid, y on the image;
		// W is C x M/group x kernel.
		xt := randInts(r, s.N*s.C*prod(s.Grid), -3, 3)
		wt := randInts(r, s.C*(s.M/s.Group)*prod(s.Kernel), -3, 3)
		yt := make([]float64, s.N*s.M*prod(s.Image))
		if err := Transpose(cfg, s, xt, wt, nil, yt); err != nil {
			t.Fatal(err)
		}
		want = naiveTranspose(s, xt, wt)
		for i := range want {
			if yt[i] != want[i] {
				t.Fatalf("%d: Transpose %+v: element %d is %v, want %v", iter, s, i, yt[i], want[i])
			}
		}
		// Integer: the same convolution on bytes with zero points.
		xb, wb := make([]byte, len(x)), make([]byte, len(w))
		for i, v := range x {
			xb[i] = byte(int8(v + 1))
		}
		for i, v := range w {
			wb[i] = byte(int8(v - 2))
		}
		yi := make([]int32, len(y))
		if err := Integer(cfg, s, xb, true, byte(1), wb, true, []int32{-2}, yi); err != nil {
			t.Fatal(err)
		}
		want = naiveForward(s, x, w, nil)
		for i := range want {
			if float64(yi[i]) != want[i] {
				t.Fatalf("%d: Integer %+v: element %d is %v, want %v", iter, s, i, yi[i], want[i])
			}
		}
	}
}

func TestScratchIsChargedBeforeWork(t *testing.T) {
	s := Shape{N: 1, C: 4, M: 4, Group: 1, Image: []int{32, 32}, Grid: []int{32, 32}, Kernel: []int{3, 3},
		Stride: []int{1, 1}, Dilation: []int{1, 1}, Pad: []int{1, 1}}
	refused := errors.New("over budget")
	var charged int64
	cfg := Config{Threads: 1, Charge: func(b int64) error { charged += b; return refused }}
	y := make([]float32, 4*32*32)
	y[0] = 42
	err := Forward(cfg, s, make([]float32, 4*32*32), make([]float32, 4*4*9), nil, y)
	if !errors.Is(err, refused) || y[0] != 42 {
		t.Fatalf("got %v (y[0] %v), want the refusal before any work", err, y[0])
	}
	if want := ScratchBytes(s, 4, 1); charged != want {
		t.Errorf("charged %d bytes, ScratchBytes says %d", charged, want)
	}
}

// countdown is a context cancelled at the n-th look at its Done channel:
// a cancellation in the middle of a run, between two tiles.
type countdown struct {
	context.Context
	n    int
	done chan struct{}
}

func (c *countdown) Done() <-chan struct{} {
	if c.n--; c.n == 0 {
		close(c.done)
	}
	return c.done
}

func (c *countdown) Err() error {
	select {
	case <-c.done:
		return context.Canceled
	default:
		return nil
	}
}

func TestCancelledBetweenTiles(t *testing.T) {
	defer func(b, m, i int) { tileBytes, minTile, implicitTile = b, m, i }(tileBytes, minTile, implicitTile)
	tileBytes, minTile, implicitTile = 1, 4, 4
	s := Shape{N: 1, C: 2, M: 2, Group: 1, Image: []int{16, 16}, Grid: []int{16, 16}, Kernel: []int{3, 3},
		Stride: []int{1, 1}, Dilation: []int{1, 1}, Pad: []int{1, 1}}
	for _, run := range []func(Config) error{
		func(cfg Config) error {
			return Forward(cfg, s, make([]float32, 2*256), make([]float32, 2*2*9), nil, make([]float32, 2*256))
		},
		func(cfg Config) error {
			return Transpose(cfg, s, make([]float32, 2*256), make([]float32, 2*2*9), nil, make([]float32, 2*256))
		},
	} {
		ctx := &countdown{Context: context.Background(), n: 5, done: make(chan struct{})}
		if err := run(Config{Ctx: ctx, Threads: 1}); !errors.Is(err, context.Canceled) {
			t.Errorf("got %v, want context.Canceled", err)
		}
	}
}

// The speed table's three cases, on one core; cpu-ms/op is the
// CPU time of a run, what a loaded machine's wall time hides:
//
//	go test ./ops/internal/conv -run XXX -bench . -benchtime 3x
func BenchmarkSpeedTable(b *testing.B) {
	sq := func(c, m, k, pad, group int) Shape {
		return Shape{N: 8, C: c, M: m, Group: group, Image: []int{56, 56}, Grid: []int{56, 56}, Kernel: []int{k, k},
			Stride: []int{1, 1}, Dilation: []int{1, 1}, Pad: []int{pad, pad}}
	}
	for _, c := range []struct {
		name   string
		s      Shape
		kernel string // the depthwise row kernel ("": the default)
	}{{"3x3_64_64", sq(64, 64, 3, 1, 1), ""}, {"1x1_64_256", sq(64, 256, 1, 0, 1), ""}, {"depthwise_3x3_128", sq(128, 128, 3, 1, 128), ""},
		{"depthwise_3x3_128_avx2", sq(128, 128, 3, 1, 128), "avx2"}, {"depthwise_3x3_128_go", sq(128, 128, 3, 1, 128), "go"}} {
		b.Run(c.name, func(b *testing.B) {
			if c.kernel != "" {
				if !slices.Contains(rowKernels(), c.kernel) {
					b.Skip("no " + c.kernel + " kernel here")
				}
				defer func(k string) { rowKernel = k }(rowKernel)
				rowKernel = c.kernel
			}
			s := c.s
			x := make([]float32, s.N*s.C*56*56)
			w := make([]float32, s.M*(s.C/s.Group)*prod(s.Kernel))
			y := make([]float32, s.N*s.M*56*56)
			cpu := cpuSeconds()
			for b.Loop() {
				if err := Forward(Config{Threads: 1}, s, x, w, nil, y); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cpuSeconds()-cpu)*1e3/float64(b.N), "cpu-ms/op")
		})
	}
}

// The depthwise 3x3 stride-1 rows (rows3x3, all three kernel rows in one
// pass) against the definition: every image width from narrower than the
// kernel up, pads 0-2, dilations 1-2, row strides 1-2, float64 sums of
// small integers (exact).
func TestDepthwise3x3MatchesTheDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for iw := 1; iw <= 12; iw++ {
		for p := range 3 {
			for d := 1; d <= 2; d++ {
				for sh := 1; sh <= 2; sh++ {
					ih := 1 + r.IntN(8)
					oh := (ih+2*p-2*d-1)/sh + 1
					ow := iw + 2*p - 2*d
					if oh < 1 || ow < 1 {
						continue
					}
					s := Shape{N: 1 + r.IntN(2), C: 3, M: 3, Group: 3, Image: []int{ih, iw}, Grid: []int{oh, ow}, Kernel: []int{3, 3},
						Stride: []int{sh, 1}, Dilation: []int{d, d}, Pad: []int{p, p}}
					x := randInts(r, s.N*s.C*ih*iw, -3, 3)
					w := randInts(r, s.M*9, -3, 3)
					b := randInts(r, s.M, -3, 3)
					y := make([]float64, s.N*s.M*oh*ow)
					if err := Forward(Config{Threads: 1}, s, x, w, b, y); err != nil {
						t.Fatal(err)
					}
					want := naiveForward(s, x, w, b)
					for i := range want {
						if y[i] != want[i] {
							t.Fatalf("%+v: element %d is %v, want %v", s, i, y[i], want[i])
						}
					}
				}
			}
		}
	}
}

// A transposed convolution whose taps tile the image exactly (place) gives
// the bits of the general path (fillBias, then scatter's additions): 1-D and
// 2-D, groups, with and without bias (a -0 tap then gives +0, as 0 + -0
// does), NaN and infinities, tiles that end inside a row.
func TestTransposeExactTilesIsTheScatter(t *testing.T) {
	defer func(b, m int) { tileBytes, minTile = b, m }(tileBytes, minTile)
	r := rand.New(rand.NewPCG(3, 4))
	special := []float32{float32(math.Copysign(0, -1)), 0, float32(math.Inf(1)), float32(math.NaN()), -1.5, 3}
	for iter := range 300 {
		tileBytes, minTile = 1, 1+r.IntN(9)
		rank := 1 + r.IntN(2)
		s := Shape{N: 1 + r.IntN(2), Group: 1 + r.IntN(2)}
		cg, mg := 1+r.IntN(3), 1+r.IntN(3)
		s.C, s.M = cg*s.Group, mg*s.Group
		for range rank {
			k, g := 1+r.IntN(3), 1+r.IntN(7)
			s.Image, s.Grid, s.Kernel = append(s.Image, g*k), append(s.Grid, g), append(s.Kernel, k)
			s.Stride, s.Dilation, s.Pad = append(s.Stride, k), append(s.Dilation, 1), append(s.Pad, 0)
		}
		if ok, _, _, _, _ := exactTiles(s); !ok {
			t.Fatalf("%+v does not tile exactly", s)
		}
		fill := func(n int) []float32 {
			v := make([]float32, n)
			for i := range v {
				if r.IntN(6) == 0 {
					v[i] = special[r.IntN(len(special))]
				} else {
					v[i] = float32(r.NormFloat64())
				}
			}
			return v
		}
		x, w := fill(s.N*s.C*prod(s.Grid)), fill(s.C*mg*prod(s.Kernel))
		var b []float32
		if r.IntN(2) == 0 {
			b = fill(s.M)
		}
		cfg := Config{Threads: 1 + r.IntN(2)}
		got, want := make([]float32, s.N*s.M*prod(s.Image)), make([]float32, s.N*s.M*prod(s.Image))
		if err := Transpose(cfg, s, x, w, b, got); err != nil {
			t.Fatal(err)
		}
		scatterOnly = true
		err := Transpose(cfg, s, x, w, b, want)
		scatterOnly = false
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) && !(got[i] != got[i] && want[i] != want[i]) {
				t.Fatalf("%d: %+v bias %v: element %d is %v, the scatter gives %v", iter, s, b != nil, i, got[i], want[i])
			}
		}
	}
}
