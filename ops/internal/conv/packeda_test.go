package conv

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"
)

// The implicit path with the weights packed at load (Config.WeightsA)
// gives the bits of the weights read in place: 3x3, 5x5, 1x1 stride-2
// and 1x1 layers, groups of rows split over 1-3 cores, bias, clamp, special values.
func TestPackedWeightsKeepTheBits(t *testing.T) {
	r := rand.New(rand.NewPCG(61, 62))
	packedOnly := 0
	for iter := range 40 {
		h := 1 + r.IntN(12)
		s := Shape{N: 1 + r.IntN(2), Group: 1, C: 1 + r.IntN(200), M: 1 + r.IntN(300)}
		k, st, p := []int{1, 3, 5}[r.IntN(3)], 1+r.IntN(2), 0
		if k > 1 {
			p = k / 2
		} else if iter%3 == 0 {
			st = 2
		} else {
			st = 1 // a 1x1 product on the image in place
		}
		in := (h-1)*st + k - 2*p
		s.Image, s.Grid, s.Kernel = []int{in, in}, []int{h, h}, []int{k, k}
		s.Stride, s.Dilation, s.Pad = []int{st, st}, []int{1, 1}, []int{p, p}
		x := specialF32(r, s.N*s.C*prod(s.Image))
		w := specialF32(r, s.M*s.C*prod(s.Kernel))
		b := specialF32(r, s.M)
		if r.IntN(3) == 0 {
			b = nil
		}
		pa, err := PackWeightsA(Config{}, s.M, s.C*k*k, w)
		if err != nil {
			t.Fatal(err)
		}
		th := 1 + r.IntN(3)
		cfg := Config{Threads: th}
		if iter%2 == 0 {
			cfg.Clamp32 = &[2]float32{0, 6}
			cfg.Epilogue32 = func(v []float32) {
				for i, e := range v {
					v[i] = min(max(e, 0), 6)
				}
			}
		}
		want := make([]float32, s.N*s.M*h*h)
		got := make([]float32, len(want))
		if err := Forward(cfg, s, x, w, b, want); err != nil {
			t.Fatal(err)
		}
		cfg.WeightsA = pa
		if err := Forward(cfg, s, x, w, b, got); err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if math.Float32bits(want[i]) != math.Float32bits(got[i]) {
				t.Fatalf("%d: %+v on %d cores: element %d %v, want %v", iter, s, th, i, got[i], want[i])
			}
		}
		if pa == nil {
			continue
		}
		// The weights kept only packed: unpacked, they are w; read there
		// alone (PackedOnly), the same bits; elsewhere Forward refuses a
		// nil w rather than read it.
		back := make([]float32, len(w))
		pa.Unpack(back)
		for i := range w {
			if math.Float32bits(back[i]) != math.Float32bits(w[i]) {
				t.Fatalf("%d: unpacked weight %d %v, want %v", iter, i, back[i], w[i])
			}
		}
		clear(got)
		err = Forward(cfg, s, x, nil, b, got)
		if !PackedOnly(cfg, s, b != nil) {
			if err == nil {
				t.Fatalf("%d: %+v on %d cores: no weights, no error", iter, s, th)
			}
			continue
		}
		packedOnly++
		if err != nil {
			t.Fatalf("%d: %+v on %d cores, weights packed alone: %v", iter, s, th, err)
		}
		for i := range want {
			if math.Float32bits(want[i]) != math.Float32bits(got[i]) {
				t.Fatalf("%d: %+v on %d cores, weights packed alone: element %d %v, want %v", iter, s, th, i, got[i], want[i])
			}
		}
	}
	t.Logf("%d of 40 read the weights packed alone", packedOnly)
}

// CONV_PACKEDA=1 go test -run TestPackedWeightsLayers -v: ResNet-50's
// implicit layers with the weights read in place and packed, least CPU
// time a call, the two alternated, each call on another of 8 copies of
// the layer's weights and image (as in the model, where they are evicted
// from L2 between calls).
func TestPackedWeightsLayers(t *testing.T) {
	if os.Getenv("CONV_PACKEDA") == "" {
		t.Skip("CONV_PACKEDA not set")
	}
	layers := []struct {
		name                string
		c, m, hin, k, st, p int
	}{
		{"3x3 64 at 56", 64, 64, 56, 3, 1, 1},
		{"3x3 128 at 28", 128, 128, 28, 3, 1, 1},
		{"3x3 256 at 14", 256, 256, 14, 3, 1, 1},
		{"3x3 512 at 7", 512, 512, 7, 3, 1, 1},
		{"3x3 512 s2 14->7", 512, 512, 14, 3, 2, 1},
		{"1x1 s2 1024->2048 14->7", 1024, 2048, 14, 1, 2, 0},
		{"1x1 s2 512->1024 28->14", 512, 1024, 28, 1, 2, 0},
		{"stem 7x7 s2", 3, 64, 224, 7, 2, 3},
		{"1x1 256->1024 at 14", 256, 1024, 14, 1, 1, 0},
		{"1x1 1024->256 at 14", 1024, 256, 14, 1, 1, 0},
		{"1x1 128->512 at 28", 128, 512, 28, 1, 1, 0},
		{"1x1 512->128 at 28", 512, 128, 28, 1, 1, 0},
		{"1x1 64->256 at 56", 64, 256, 56, 1, 1, 0},
		{"1x1 256->64 at 56", 256, 64, 56, 1, 1, 0},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, l := range layers {
		h := (l.hin+2*l.p-l.k)/l.st + 1
		s := Shape{N: 1, Group: 1, C: l.c, M: l.m, Image: []int{l.hin, l.hin}, Grid: []int{h, h}, Kernel: []int{l.k, l.k}, Stride: []int{l.st, l.st}, Dilation: []int{1, 1}, Pad: []int{l.p, l.p}}
		const copies = 8
		var xs, ws [copies][]float32
		var pas [copies]*Config
		for i := range copies {
			xs[i] = specialF32(r, l.c*l.hin*l.hin)
			ws[i] = specialF32(r, l.m*l.c*l.k*l.k)
			pa, _ := PackWeightsA(Config{}, l.m, l.c*l.k*l.k, ws[i])
			pas[i] = &Config{Threads: 1, WeightsA: pa}
		}
		y := make([]float32, l.m*h*h)
		b := specialF32(r, l.m)
		best := [2]float64{math.Inf(1), math.Inf(1)}
		for it := range 24 {
			for v := range 2 {
				cfg := Config{Threads: 1}
				if v == 1 {
					cfg = *pas[it%copies]
				}
				t0 := cpuSeconds()
				if err := Forward(cfg, s, xs[it%copies], ws[it%copies], b, y); err != nil {
					t.Fatal(err)
				}
				best[v] = min(best[v], cpuSeconds()-t0)
			}
		}
		t.Logf("%-26s in place %7.3f ms, packed %7.3f ms, %.3f", l.name, best[0]*1e3, best[1]*1e3, best[1]/best[0])
	}
}
