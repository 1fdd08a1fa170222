package conv

import (
	"fmt"
	"os"
	"testing"
)

// mobileNetV2Pointwise is MobileNetV2's 1x1 convolutions (batch 1): input
// channels, output channels, map side, and how many layers have that shape.
var mobileNetV2Pointwise = []struct{ c, m, side, count int }{
	{32, 16, 112, 1}, {16, 96, 112, 1}, {96, 24, 56, 1}, {24, 144, 56, 2}, {144, 24, 56, 1},
	{144, 32, 28, 1}, {32, 192, 28, 3}, {192, 32, 28, 2}, {192, 64, 14, 1},
	{64, 384, 14, 4}, {384, 64, 14, 3}, {384, 96, 14, 1}, {96, 576, 14, 3}, {576, 96, 14, 2},
	{576, 160, 7, 1}, {160, 960, 7, 3}, {960, 160, 7, 2}, {960, 320, 7, 1}, {320, 1280, 7, 1},
}

// BenchmarkMobileNetV2Pointwise times each of MobileNetV2's 1x1 shapes on
// one core (GFLOPS by CPU time, to set against the gemm package's
// BenchmarkPeak) and the share of the model's 1x1 time it takes
// (ms-model: the CPU time of one call times the layers of that shape).
func BenchmarkMobileNetV2Pointwise(b *testing.B) {
	for _, l := range mobileNetV2Pointwise {
		s := Shape{N: 1, C: l.c, M: l.m, Group: 1, Image: []int{l.side, l.side}, Grid: []int{l.side, l.side},
			Kernel: []int{1, 1}, Stride: []int{1, 1}, Dilation: []int{1, 1}, Pad: []int{0, 0}}
		b.Run(fmt.Sprintf("%dx%d_k%d", l.m, l.side*l.side, l.c), func(b *testing.B) {
			p := l.side * l.side
			x := make([]float32, l.c*p)
			for i := range x {
				x[i] = float32(i%7) - 3
			}
			w := make([]float32, l.m*l.c)
			for i := range w {
				w[i] = float32(i%5) - 2
			}
			bias := make([]float32, l.m)
			if os.Getenv("NOBIAS") != "" {
				bias = nil
			}
			y := make([]float32, l.m*p)
			cpu := cpuSeconds()
			for b.Loop() {
				if err := Forward(Config{Threads: 1}, s, x, w, bias, y); err != nil {
					b.Fatal(err)
				}
			}
			per := (cpuSeconds() - cpu) / float64(b.N)
			if per > 0 {
				b.ReportMetric(2*float64(l.m*l.c*p)/per/1e9, "GFLOPS-cpu")
				b.ReportMetric(per*1e3*float64(l.count), "ms-model")
			}
		})
	}
}
