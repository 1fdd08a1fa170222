package conv

import (
	"errors"
	"math/rand/v2"
	"testing"
)

// TestIntegerPackedAgrees: the implicit int8 path (weights packed once or
// at the run, windows straight into the panels) against Integer's im2col
// tiles on random shapes (one and two spatial axes, strides, pads,
// dilations, groups, 1x1; the windows' vector and Go paths, from the
// padded copy or the image as it lies), u8/s8 images and weights, per-tensor and
// per-channel zero points, extremes; exact.
func TestIntegerPackedAgrees(t *testing.T) {
	defer func(i int, v bool, m int64) { integerTile, vecWindows8, maxPadded8 = i, v, m }(integerTile, vecWindows8, maxPadded8)
	vec := vecWindows8
	r := rand.New(rand.NewPCG(21, 22))
	iters := 300
	if testing.Short() {
		iters = 80
	}
	for it := range iters {
		integerTile = []int{512, 32, 64}[r.IntN(3)]
		vecWindows8 = vec && it%2 == 0           // the Go path too
		maxPadded8 = []int64{4 << 20, 0}[it%3/2] // and fillWindows8's, from the image as it lies
		rank := 1 + r.IntN(2)
		group := 1 + r.IntN(3)
		if r.IntN(5) == 0 {
			group = 1
		}
		s := Shape{N: 1 + r.IntN(2), Group: group}
		s.C = group * (1 + r.IntN(5))
		s.M = group * (1 + r.IntN(20))
		if r.IntN(6) == 0 {
			s.C = group * (20 + r.IntN(300)) // blocks of k
		}
		pointwise := r.IntN(5) == 0
		for range rank {
			k := 1 + r.IntN(4)
			st, dil, pad := 1+r.IntN(3)/2*(1+r.IntN(2)), 1+r.IntN(4)/3, r.IntN(3)
			if r.IntN(2) == 0 {
				st = 1
			}
			if pointwise {
				k, st, dil, pad = 1, 1, 1, 0
			}
			in := k*dil + r.IntN(40)
			if rank == 2 {
				in = k*dil + r.IntN(14)
			}
			end := r.IntN(3)
			if pointwise {
				end = 0
			}
			out := (in+pad+end-dil*(k-1)-1)/st + 1
			s.Image = append(s.Image, in)
			s.Grid = append(s.Grid, out)
			s.Kernel = append(s.Kernel, k)
			s.Stride = append(s.Stride, st)
			s.Dilation = append(s.Dilation, dil)
			s.Pad = append(s.Pad, pad)
		}
		if !IntegerImplicitOK(s) {
			t.Fatalf("%+v not taken", s)
		}
		x := make([]byte, s.N*s.C*prod(s.Image))
		w := make([]byte, s.M*s.C/s.Group*prod(s.Kernel))
		extremes := r.IntN(4) == 0
		for _, v := range [][]byte{x, w} {
			for i := range v {
				v[i] = byte(r.IntN(256))
				if extremes {
					v[i] = []byte{0, 0x7f, 0x80, 0xff}[r.IntN(4)]
				}
			}
		}
		xSigned, wSigned := r.IntN(2) == 0, r.IntN(2) == 0
		xz := byte(r.IntN(256))
		if r.IntN(3) == 0 {
			xz = 0
		}
		var wz []int32
		switch r.IntN(3) {
		case 1:
			wz = []int32{int32(r.IntN(256)) - 128}
		case 2:
			wz = make([]int32, s.M)
			for i := range wz {
				wz[i] = int32(r.IntN(256)) - 128
			}
		}
		if !wSigned {
			for i := range wz {
				wz[i] += 128
			}
		}
		cfg := Config{Threads: 1 + r.IntN(3)}
		want := make([]int32, s.N*s.M*prod(s.Grid))
		if err := Integer(cfg, s, x, xSigned, xz, w, wSigned, wz, want); err != nil {
			t.Fatal(err)
		}
		var pw *IntegerWeights
		if r.IntN(2) == 0 {
			var err error
			k := s.C / s.Group * prod(s.Kernel)
			if pw, err = PackIntegerWeights(cfg.gemm(1), s.M, k, s.Group, w, wSigned); err != nil {
				t.Fatal(err)
			}
		}
		got := make([]int32, len(want))
		for i := range got {
			got[i] = int32(r.Uint32())
		}
		if err := IntegerPacked(cfg, s, x, xSigned, xz, w, wSigned, pw, wz, got); err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%d: %+v signed %v/%v zeros %d/%v packed %v: y[%d] = %d, want %d", it, s, xSigned, wSigned, xz, wz, pw != nil, i, got[i], want[i])
			}
		}
	}
}

// TestIntegerPackedCharged: the weights packed at a run and the panels
// are charged before any work, as IntegerImplicitScratchBytes says.
func TestIntegerPackedCharged(t *testing.T) {
	s := Shape{N: 1, C: 16, M: 24, Group: 1, Image: []int{20, 20}, Grid: []int{20, 20}, Kernel: []int{3, 3},
		Stride: []int{1, 1}, Dilation: []int{1, 1}, Pad: []int{1, 1}}
	refused := errors.New("over budget")
	y := make([]int32, 24*400)
	y[0] = 42
	err := IntegerPacked(Config{Charge: func(int64) error { return refused }}, s, make([]byte, 16*400), false, 3, make([]byte, 24*16*9), true, nil, nil, y)
	if !errors.Is(err, refused) || y[0] != 42 {
		t.Fatalf("got %v (y[0] %d), want the refusal before any work", err, y[0])
	}
	var charged int64
	if err := IntegerPacked(Config{Charge: func(b int64) error { charged += b; return nil }}, s, make([]byte, 16*400), false, 3, make([]byte, 24*16*9), true, nil, nil, y); err != nil {
		t.Fatal(err)
	}
	if want := IntegerImplicitScratchBytes(s, 1, false); charged != want {
		t.Errorf("charged %d bytes, IntegerImplicitScratchBytes says %d", charged, want)
	}
}

func TestInterleave4(t *testing.T) {
	for n := range 70 {
		s := make([][]byte, 4)
		for i := range s {
			s[i] = make([]byte, n)
			for j := range s[i] {
				s[i][j] = byte(i*97 + j*31)
			}
		}
		d := make([]byte, 4*n+3)
		interleave4(d[:4*n], s[0], s[1], s[2], s[3])
		for o := range n {
			for t2 := range 4 {
				if d[4*o+t2] != s[t2][o] {
					t.Fatalf("n %d: d[%d] = %d, want %d", n, 4*o+t2, d[4*o+t2], s[t2][o])
				}
			}
		}
	}
}

// BenchmarkIntegerConv: the int8 convolutions of BENCHMARKS.md (x
// [4,64,56,56] u8, weights s8), im2col tiles (Integer, weights packed at
// every product) against the implicit path with weights packed once, one
// core, in CPU ms per op (the machine is shared).
func BenchmarkIntegerConv(b *testing.B) {
	for _, c := range []struct {
		name           string
		k, m, n, ch, h int
	}{{"3x3", 3, 64, 4, 64, 56}, {"1x1", 1, 256, 4, 64, 56}, {"3x3_small", 3, 4, 1, 4, 8}} {
		p := c.k / 2
		s := Shape{N: c.n, C: c.ch, M: c.m, Group: 1, Image: []int{c.h, c.h}, Grid: []int{c.h, c.h}, Kernel: []int{c.k, c.k},
			Stride: []int{1, 1}, Dilation: []int{1, 1}, Pad: []int{p, p}}
		x := make([]byte, c.n*c.ch*c.h*c.h)
		w := make([]byte, c.m*c.ch*c.k*c.k)
		for i := range x {
			x[i] = byte(i * 7)
		}
		for i := range w {
			w[i] = byte(i * 13)
		}
		y := make([]int32, c.n*c.m*c.h*c.h)
		cfg := Config{Threads: 1}
		pw, err := PackIntegerWeights(cfg.gemm(1), c.m, c.ch*c.k*c.k, 1, w, true)
		if err != nil {
			b.Fatal(err)
		}
		for _, path := range []string{"im2col", "implicit"} {
			b.Run(c.name+"/"+path, func(b *testing.B) {
				cpu := cpuSeconds()
				for b.Loop() {
					var err error
					if path == "im2col" {
						err = Integer(cfg, s, x, false, 128, w, true, nil, y)
					} else {
						err = IntegerPacked(cfg, s, x, false, 128, w, true, pw, nil, y)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric((cpuSeconds()-cpu)*1e9/float64(b.N), "cpu-ns/op")
			})
		}
	}
}
