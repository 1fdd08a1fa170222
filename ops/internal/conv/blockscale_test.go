package conv

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// mulRight is a Mul's float32 product of a span by a scalar.
func mulRight(o, a []float32, s float32) {
	for i := range o {
		o[i] = a[i] * s
	}
}

// ScaledPointwise32 gives the bits of the Mul by the scales followed by
// the projection: random shapes, special values in x, the scales and the
// weights, clamps, another activation, a residual, bands from 16 positions
// to the whole plane, 1-3 cores.
func TestScaledProjectionIsTheMulAndTheConv(t *testing.T) {
	r := rand.New(rand.NewPCG(71, 72))
	defer func(v int) { scaledBandBytes = v }(scaledBandBytes)
	iters := 120
	if testing.Short() {
		iters = 30
	}
	two := func(a, b int) []int { return []int{a, b} }
	for iter := range iters {
		n := 1 + r.IntN(2)
		c, m := 1+r.IntN(300), 1+r.IntN(64)
		h, w := 1+r.IntN(40), 1+r.IntN(40)
		s := Shape{N: n, C: c, M: m, Group: 1, Image: two(h, w), Grid: two(h, w), Kernel: two(1, 1), Stride: two(1, 1), Dilation: two(1, 1), Pad: two(0, 0)}
		x, sc := specialF32(r, n*c*h*w), specialF32(r, n*c)
		st := BlockStage{W: specialF32(r, m*c), B: specialF32(r, m)}
		if r.IntN(4) == 0 {
			st.B = nil
		}
		switch iter % 3 {
		case 0:
			st.Cfg.Clamp32 = &[2]float32{0, 6}
			st.Cfg.Epilogue32 = relu6
		case 1:
			st.Cfg.Epilogue32 = hardSwish32
		}
		var res []float32
		if r.IntN(2) == 0 {
			res = specialF32(r, n*m*h*w)
		}
		// The Mul, then Forward.
		scaled := make([]float32, len(x))
		for i := range n * c {
			mulRight(scaled[i*h*w:(i+1)*h*w], x[i*h*w:(i+1)*h*w], sc[i])
		}
		want := make([]float32, n*m*h*w)
		wst := st
		if res != nil {
			wst.Cfg.Epilogue32 = residualEpilogue(&want, res)
		}
		if err := Forward(stageConfig(Config{Threads: 1}, wst), s, scaled, st.W, st.B, want); err != nil {
			t.Fatal(err)
		}
		for _, band := range []int{1, 24 << 10, 256 << 10, 4 << 20} {
			scaledBandBytes = band
			for th := 1; th <= 3; th++ {
				got := make([]float32, len(want))
				gst := st
				if res != nil {
					gst.Cfg.Epilogue32 = residualEpilogue(&got, res)
				}
				var charged int64
				cfg := Config{Threads: th, Charge: func(b int64) error { charged += b; return nil }}
				if err := ScaledPointwise32(cfg, s, x, sc, mulRight, gst, got); err != nil {
					t.Fatal(err)
				}
				sameBits32(t, fmt.Sprintf("case %d (%+v, band %d, %d cores, residual %v)", iter, s, band, th, res != nil), got, want)
				if want := ScaledScratchBytes(s, th); charged < want {
					t.Fatalf("%d cores: charged %d bytes, the band buffers are %d", th, charged, want)
				}
			}
		}
	}
}
