package conv

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
)

// mobileNetV2Blocks is MobileNetV2's inverted residual blocks with an
// expansion (batch 1): input channels, expanded, output, input side,
// stride, and how many blocks have that shape.
var mobileNetV2Blocks = []struct{ c, e, m, side, stride, count int }{
	{16, 96, 24, 112, 2, 1}, {24, 144, 24, 56, 1, 1}, {24, 144, 32, 56, 2, 1},
	{32, 192, 32, 28, 1, 2}, {32, 192, 64, 28, 2, 1}, {64, 384, 64, 14, 1, 3},
	{64, 384, 96, 14, 1, 1}, {96, 576, 96, 14, 1, 2}, {96, 576, 160, 14, 2, 1},
	{160, 960, 160, 7, 1, 2}, {160, 960, 320, 7, 1, 1},
}

// BenchmarkMobileNetV2Blocks times each block shape fused (Block32) and as
// the three convolutions (Forward each), Relu6 on the first two, on
// BLOCK_THREADS cores (default 1); CPU µs a call. BLOCK_BAND sets
// blockBandBytes.
func BenchmarkMobileNetV2Blocks(b *testing.B) {
	th := 1
	if v, err := strconv.Atoi(os.Getenv("BLOCK_THREADS")); err == nil {
		th = v
	}
	if v, err := strconv.Atoi(os.Getenv("BLOCK_BAND")); err == nil {
		defer func(old int) { blockBandBytes = old }(blockBandBytes)
		blockBandBytes = v
	}
	defer func(old int) { blockMinBytes = old }(blockMinBytes)
	if v, err := strconv.Atoi(os.Getenv("BLOCK_MIN")); err == nil {
		blockMinBytes = v
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, l := range mobileNetV2Blocks {
		oside := (l.side+2-3)/l.stride + 1
		two := func(a, b int) []int { return []int{a, b} }
		bc := blockCase{keep: true}
		bc.expand = Shape{N: 1, C: l.c, M: l.e, Group: 1, Image: two(l.side, l.side), Grid: two(l.side, l.side), Kernel: two(1, 1), Stride: two(1, 1), Dilation: two(1, 1), Pad: two(0, 0)}
		bc.dw = Shape{N: 1, C: l.e, M: l.e, Group: l.e, Image: two(l.side, l.side), Grid: two(oside, oside), Kernel: two(3, 3), Stride: two(l.stride, l.stride), Dilation: two(1, 1), Pad: two(1, 1)}
		bc.project = Shape{N: 1, C: l.e, M: l.m, Group: 1, Image: two(oside, oside), Grid: two(oside, oside), Kernel: two(1, 1), Stride: two(1, 1), Dilation: two(1, 1), Pad: two(0, 0)}
		f := func(n int) []float32 {
			v := make([]float32, n)
			for i := range v {
				v[i] = r.Float32()*2 - 1
			}
			return v
		}
		bc.x = f(l.c * l.side * l.side)
		bc.st[0] = BlockStage{W: f(l.e * l.c), B: f(l.e)}
		bc.st[1] = BlockStage{W: f(l.e * 9), B: f(l.e)}
		bc.st[2] = BlockStage{W: f(l.m * l.e), B: f(l.m)}
		for i := range 2 {
			bc.st[i].Cfg.Clamp32, bc.st[i].Cfg.Epilogue32 = &[2]float32{0, 6}, relu6
		}
		for _, fused := range []bool{false, true} {
			name := "three"
			if fused {
				name = "fused"
			}
			b.Run(fmt.Sprintf("%d_%d_%d_at%d_s%d/%s", l.c, l.e, l.m, l.side, l.stride, name), func(b *testing.B) {
				cpu := cpuSeconds()
				for b.Loop() {
					if _, err := bc.run(th, fused); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric((cpuSeconds()-cpu)/float64(b.N)*1e6, "cpu-us")
				b.ReportMetric((cpuSeconds()-cpu)/float64(b.N)*1e6*float64(l.count), "model-us")
			})
		}
	}
}
