package conv

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
)

func fewShape(n, c, m, img, k, stride, dil, pad int) Shape {
	grid := (img+2*pad-dil*(k-1)-1)/stride + 1
	return Shape{N: n, C: c, M: m, Group: 1, Image: []int{img}, Grid: []int{grid},
		Kernel: []int{k}, Stride: []int{stride}, Dilation: []int{dil}, Pad: []int{pad, pad}[:1]}
}

func randSmall(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(r.IntN(9) - 4)
	}
	return v
}

// ForwardFew against the definition (small integers: every order of the
// sums is exact) and against Forward's usual path bit for bit (random
// reals), on short signals with padding, strides and dilations.
func TestForwardFewMatchesTheDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	cases := []Shape{
		fewShape(1, 1, 258, 640, 256, 128, 1, 0), // silero v5's STFT
		fewShape(1, 129, 128, 4, 3, 1, 1, 1),     // its first encoder layer
		fewShape(1, 128, 64, 4, 3, 2, 1, 1),
		fewShape(1, 64, 64, 2, 3, 2, 1, 1),
		fewShape(2, 3, 5, 9, 2, 3, 2, 2),
		fewShape(3, 2, 7, 5, 3, 1, 1, 1),
		fewShape(1, 4, 33, 1, 1, 1, 1, 0),
	}
	for i := range 20 {
		k := 1 + r.IntN(4)
		cases = append(cases, fewShape(1+r.IntN(2), 1+r.IntN(20), 1+r.IntN(70), k+r.IntN(9), k, 1+r.IntN(3), 1+r.IntN(2)*(i%2), r.IntN(2)))
	}
	for _, s := range cases {
		if !Few(s) || s.Grid[0] <= 0 {
			continue
		}
		k := s.C * s.Kernel[0]
		for _, threads := range []int{1, 2} {
			x, w, b := randSmall(r, s.N*s.C*s.Image[0]), randSmall(r, s.M*k), randSmall(r, s.M)
			cfg := Config{Threads: threads}
			pw, err := PackFew(cfg, s.M, k, w)
			if err != nil {
				t.Fatal(err)
			}
			y := make([]float32, s.N*s.M*s.Grid[0])
			if err := ForwardFew(cfg, s, x, pw, b, y); err != nil {
				t.Fatal(err)
			}
			x64, w64, b64 := widen(x), widen(w), widen(b)
			want := naiveForward(s, x64, w64, b64)
			for i := range y {
				if float64(y[i]) != want[i] {
					t.Fatalf("%+v threads %d: y[%d] = %v, want %v", s, threads, i, y[i], want[i])
				}
			}
			// Random reals: the same bits as Forward's usual path.
			for i := range x {
				x[i] = r.Float32()*2 - 1
			}
			for i := range w {
				w[i] = r.Float32()*2 - 1
			}
			pw, _ = PackFew(cfg, s.M, k, w)
			got := make([]float32, len(y))
			if err := ForwardFew(cfg, s, x, pw, b, got); err != nil {
				t.Fatal(err)
			}
			if err := Forward(cfg, s, x, w, b, y); err != nil {
				t.Fatal(err)
			}
			for i := range y {
				if got[i] != y[i] {
					t.Fatalf("%+v threads %d: y[%d] = %v, Forward %v", s, threads, i, got[i], y[i])
				}
			}
		}
	}
}

func widen(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

// ForwardFew charges its scratch before any work and stops on a cancelled
// context.
func TestForwardFewChargesAndStops(t *testing.T) {
	s := fewShape(1, 1, 258, 640, 256, 128, 1, 0)
	w := make([]float32, 258*256)
	pw, err := PackFew(Config{}, 258, 256, w)
	if err != nil {
		t.Fatal(err)
	}
	refused := errors.New("refused")
	var asked int64
	y := make([]float32, 258*4)
	y[0] = 7
	err = ForwardFew(Config{Charge: func(b int64) error { asked = b; return refused }}, s, make([]float32, 640), pw, nil, y)
	if !errors.Is(err, refused) || asked != FewScratchBytes(s) || y[0] != 7 {
		t.Fatalf("err %v, asked %d (want %d), y[0] %v", err, asked, FewScratchBytes(s), y[0])
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := ForwardFew(Config{Ctx: ctx}, s, make([]float32, 640), pw, nil, y); !errors.Is(err, context.Canceled) || y[0] != 7 {
		t.Fatalf("cancelled: %v, y[0] %v", err, y[0])
	}
}

// BenchmarkFew: silero v5's STFT and first encoder layer through Forward's
// usual path and through ForwardFew.
func BenchmarkFew(b *testing.B) {
	for _, c := range []struct {
		name string
		s    Shape
	}{
		{"stft258x256s128", fewShape(1, 1, 258, 640, 256, 128, 1, 0)},
		{"enc129to128k3p4", fewShape(1, 129, 128, 4, 3, 1, 1, 1)},
		{"enc128to64k3s2", fewShape(1, 128, 64, 4, 3, 2, 1, 1)},
	} {
		s := c.s
		k := s.C * s.Kernel[0]
		r := rand.New(rand.NewPCG(1, 2))
		x, w, bias := randSmall(r, s.N*s.C*s.Image[0]), randSmall(r, s.M*k), randSmall(r, s.M)
		y := make([]float32, s.N*s.M*s.Grid[0])
		b.Run(c.name+"/usual", func(b *testing.B) {
			cpu := cpuSeconds()
			for b.Loop() {
				if err := Forward(Config{Threads: 1}, s, x, w, bias, y); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cpuSeconds()-cpu)*1e6/float64(b.N), "cpu-us/op")
		})
		pw, _ := PackFew(Config{}, s.M, k, w)
		b.Run(c.name+"/few", func(b *testing.B) {
			cpu := cpuSeconds()
			for b.Loop() {
				if err := ForwardFew(Config{Threads: 1}, s, x, pw, bias, y); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cpuSeconds()-cpu)*1e6/float64(b.N), "cpu-us/op")
		})
	}
}
