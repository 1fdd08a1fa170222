package conv

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/onnxshape/onnxshape/ops/internal/clamp"
)

// The channel-blocked path gives the bits of the row paths on random
// float32 values and on the values where skipping a tap in the padding
// and adding 0*w differ (a -0 bias over -0 products, infinite and NaN
// weights: any NaN for a NaN), with and without a fused Relu6 or Relu
// (Clamp32). 16-40 channels (a partial last block),
// strides 1-2, kernels 1-5, pads 0-4, dilations 1-2, inputs up to 24x24
// (outputs up to 32x32), 1-D and 2-D, 1-3 threads, one or two images.
func TestDepthwiseChannelBlocksAreTheRowPath(t *testing.T) {
	if !haveChanKernel() {
		t.Skip("no channel-blocked kernels here")
	}
	r := rand.New(rand.NewPCG(31, 32))
	blocked := 0
	for iter := range 600 {
		rank := 1 + r.IntN(2)
		s := Shape{N: 1 + r.IntN(2), C: 16 + r.IntN(25)}
		s.M, s.Group = s.C, s.C
		for range rank {
			k, st, d, p := 1+r.IntN(5), 1+r.IntN(2), 1+r.IntN(2), r.IntN(5)
			in := 1 + r.IntN(24)
			out := (in+2*p-(k-1)*d-1)/st + 1
			if out < 1 {
				p += (k - 1) * d
				out = (in+2*p-(k-1)*d-1)/st + 1
			}
			s.Image, s.Grid, s.Kernel = append(s.Image, in), append(s.Grid, out), append(s.Kernel, k)
			s.Stride, s.Dilation, s.Pad = append(s.Stride, st), append(s.Dilation, d), append(s.Pad, p)
		}
		x, w, b := randomDepthwise(r, s)
		cfg := Config{Threads: 1 + r.IntN(3)}
		if r.IntN(2) == 0 {
			// A fused Relu6 or Relu: applied before the store here, as a
			// pass over the planes on the row paths.
			lim := [2]float32{0, 6}
			if r.IntN(2) == 0 {
				lim[1] = float32(math.Inf(1))
			}
			cfg.Clamp32 = &lim
			cfg.Epilogue32 = func(v []float32) { clamp.Float32(v, v, lim[0], lim[1]) }
		}
		g := depthwiseGeometry(s)
		if p, _ := planChan[float32](&g, s, cfg); p != nil {
			blocked++
		}
		n := s.N * s.M * prod(s.Grid)
		got, want := make([]float32, n+1), make([]float32, n+1)
		got[n], want[n] = 99, 99
		if err := Forward(cfg, s, x, w, b, got[:n]); err != nil {
			t.Fatal(err)
		}
		dwChan = false
		err := Forward(cfg, s, x, w, b, want[:n])
		dwChan = true
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) && !(got[i] != got[i] && want[i] != want[i]) {
				t.Fatalf("%d: %+v: element %d is %v (%#x) by channel blocks, %v (%#x) by rows", iter, s, i, got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
			}
		}
	}
	if blocked < 300 {
		t.Fatalf("%d of 600 cases went through the channel blocks", blocked)
	}
}

// The small-plane depthwise layers of MobileNetV2 (28x28, 14x14, 7x7,
// both strides) and M-LSD tiny (20x20, and 41x41 unpadded to 20x20), 3x3, on one
// core, alone and with a fused ReLU6, through the channel blocks and the row
// paths in turn:
//
//	go test ./ops/internal/conv -run XXX -bench SmallDepthwise -count 3
func BenchmarkSmallDepthwise(b *testing.B) {
	layers := []struct{ c, size, stride, pad int }{{384, 14, 1, 1}, {576, 14, 1, 1}, {576, 14, 2, 1}, {960, 7, 1, 1},
		{192, 28, 2, 1}, {384, 20, 1, 1}, {192, 41, 2, 0}, {192, 28, 1, 1}}
	for _, l := range layers {
		out := (l.size+2*l.pad-3)/l.stride + 1
		s := Shape{N: 1, C: l.c, M: l.c, Group: l.c, Image: []int{l.size, l.size}, Grid: []int{out, out}, Kernel: []int{3, 3},
			Stride: []int{l.stride, l.stride}, Dilation: []int{1, 1}, Pad: []int{l.pad, l.pad}}
		x, w, bias, y := benchDepthwise3x3(l.c, l.size, out)
		lim := [2]float32{0, 6}
		relu6 := Config{Threads: 1, Clamp32: &lim, Epilogue32: func(v []float32) { clamp.Float32(v, v, 0, 6) }}
		for _, path := range []string{"chan", "rows", "chan_relu6", "rows_relu6"} {
			b.Run(fmt.Sprintf("%dx%d_%d_s%d/%s", l.size, l.size, l.c, l.stride, path), func(b *testing.B) {
				dwChan = strings.HasPrefix(path, "chan")
				defer func() { dwChan = true }()
				cfg := Config{Threads: 1}
				if strings.HasSuffix(path, "relu6") {
					cfg = relu6
				}
				cpu, least := cpuSeconds(), time.Duration(math.MaxInt64)
				for b.Loop() {
					t0 := time.Now()
					if err := Forward(cfg, s, x, w, bias, y); err != nil {
						b.Fatal(err)
					}
					least = min(least, time.Since(t0))
				}
				b.ReportMetric((cpuSeconds()-cpu)*1e6/float64(b.N), "cpu-us/op")
				b.ReportMetric(float64(least.Nanoseconds())/1e3, "least-us")
			})
		}
	}
}
