package conv

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// seProjections is the squeeze-and-excitation projections of EfficientNet-B0
// and MobileNetV3-Small (batch 1): channels in and out, side, and how many
// of the model's blocks have that shape.
var seProjections = []struct {
	model             string
	c, m, side, count int
}{
	{"effb0", 96, 24, 56, 1}, {"effb0", 144, 24, 56, 1}, {"effb0", 144, 40, 28, 1}, {"effb0", 240, 40, 28, 1},
	{"effb0", 240, 80, 14, 1}, {"effb0", 480, 80, 14, 2}, {"effb0", 672, 112, 14, 2},
	{"effb0", 672, 192, 7, 1}, {"effb0", 1152, 192, 7, 3},
	{"v3small", 16, 16, 56, 1}, {"v3small", 96, 40, 14, 1}, {"v3small", 240, 40, 14, 2}, {"v3small", 576, 96, 7, 2},
}

// BenchmarkSEProjections times each projection fused with its scale
// (ScaledPointwise32) and as the Mul into a tensor then Forward, on one
// core; CPU µs a call.
func BenchmarkSEProjections(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	f := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = r.Float32()*2 - 1
		}
		return v
	}
	two := func(a, b int) []int { return []int{a, b} }
	for _, l := range seProjections {
		s := Shape{N: 1, C: l.c, M: l.m, Group: 1, Image: two(l.side, l.side), Grid: two(l.side, l.side), Kernel: two(1, 1), Stride: two(1, 1), Dilation: two(1, 1), Pad: two(0, 0)}
		p := l.side * l.side
		x, sc, y, t := f(l.c*p), f(l.c), make([]float32, l.m*p), make([]float32, l.c*p)
		st := BlockStage{W: f(l.m * l.c), B: f(l.m)}
		for _, fused := range []bool{false, true} {
			name := "apart"
			if fused {
				name = "fused"
			}
			b.Run(fmt.Sprintf("%s_%d_%d_at%d/%s", l.model, l.c, l.m, l.side, name), func(b *testing.B) {
				cpu := cpuSeconds()
				for b.Loop() {
					if fused {
						if err := ScaledPointwise32(Config{Threads: 1}, s, x, sc, mulRight, st, y); err != nil {
							b.Fatal(err)
						}
						continue
					}
					for k := range l.c {
						mulRight(t[k*p:(k+1)*p], x[k*p:(k+1)*p], sc[k])
					}
					if err := Forward(Config{Threads: 1}, s, t, st.W, st.B, y); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric((cpuSeconds()-cpu)/float64(b.N)*1e6, "cpu-us")
				b.ReportMetric((cpuSeconds()-cpu)/float64(b.N)*1e6*float64(l.count), "model-us")
			})
		}
	}
}

// effB0Fronts is EfficientNet-B0's expansions and depthwise convolutions
// whose expanded tensor is 1 MB or more (batch 1): input channels,
// expanded, side, kernel, stride.
var effB0Fronts = []struct{ c, e, side, k, stride int }{
	{16, 96, 112, 3, 2}, {24, 144, 56, 3, 1}, {24, 144, 56, 5, 2},
}

// BenchmarkEffB0Fronts times each front fused (Front32) and as the two
// convolutions (Forward each), Relu6 on both (the activation's own cost apart), on one core; CPU µs a
// call.
func BenchmarkEffB0Fronts(b *testing.B) {
	defer func(v int) { frontMinBytes = v }(frontMinBytes)
	frontMinBytes = 0
	r := rand.New(rand.NewPCG(5, 6))
	f := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = r.Float32()*2 - 1
		}
		return v
	}
	two := func(a, b int) []int { return []int{a, b} }
	for _, l := range effB0Fronts {
		p := (l.k - 1) / 2
		oside := (l.side+2*p-l.k)/l.stride + 1
		expand := Shape{N: 1, C: l.c, M: l.e, Group: 1, Image: two(l.side, l.side), Grid: two(l.side, l.side), Kernel: two(1, 1), Stride: two(1, 1), Dilation: two(1, 1), Pad: two(0, 0)}
		dw := Shape{N: 1, C: l.e, M: l.e, Group: l.e, Image: two(l.side, l.side), Grid: two(oside, oside), Kernel: two(l.k, l.k), Stride: two(l.stride, l.stride), Dilation: two(1, 1), Pad: two(p, p)}
		x, t, d := f(l.c*l.side*l.side), make([]float32, l.e*l.side*l.side), make([]float32, l.e*oside*oside)
		st := [2]BlockStage{{W: f(l.e * l.c), B: f(l.e), Cfg: Config{Epilogue32: relu6, Clamp32: &[2]float32{0, 6}}}, {W: f(l.e * l.k * l.k), B: f(l.e), Cfg: Config{Epilogue32: relu6, Clamp32: &[2]float32{0, 6}}}}
		for _, fused := range []bool{false, true} {
			name := "apart"
			if fused {
				name = "fused"
			}
			b.Run(fmt.Sprintf("%d_%d_at%d_k%d_s%d/%s", l.c, l.e, l.side, l.k, l.stride, name), func(b *testing.B) {
				cpu := cpuSeconds()
				for b.Loop() {
					if fused {
						if err := Front32(Config{Threads: 1}, expand, dw, x, st, d); err != nil {
							b.Fatal(err)
						}
						continue
					}
					if err := Forward(stageConfig(Config{Threads: 1}, st[0]), expand, x, st[0].W, st[0].B, t); err != nil {
						b.Fatal(err)
					}
					if err := Forward(stageConfig(Config{Threads: 1}, st[1]), dw, t, st[1].W, st[1].B, d); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric((cpuSeconds()-cpu)/float64(b.N)*1e6, "cpu-us")
			})
		}
	}
}
