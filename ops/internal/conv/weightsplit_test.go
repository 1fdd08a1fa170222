package conv

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/ops/internal/gemm"
)

// A convolution whose weights outweigh its image (few positions, many
// output channels: ResNet-50's and MobileNetV2's 7x7 and 14x14 layers)
// is split over the cores by output channels (weightsSplit): on 2 and 3
// cores every output element must have the bits of one core's, for the
// 1x1 products, the implicit path (3x3, 1x1 stride 2), with and without
// bias, a fused clamp or another epilogue.
func TestWeightsSplitKeepsTheBits(t *testing.T) {
	r := rand.New(rand.NewPCG(51, 52))
	ran := 0
	for iter := range 60 {
		h := 1 + r.IntN(9)
		s := Shape{N: 1, Group: 1, C: 1 + r.IntN(300), M: 24 + r.IntN(400)}
		k, st, p := []int{1, 1, 3}[r.IntN(3)], 1+r.IntN(2), 0
		if k == 3 {
			p = 1
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
		var ys [3][]float32
		for th := 1; th <= 3; th++ {
			cfg := Config{Threads: th}
			switch iter % 3 {
			case 0:
				cfg.Clamp32 = &[2]float32{0, 6}
				cfg.Epilogue32 = func(v []float32) {
					for i, e := range v {
						v[i] = min(max(e, 0), 6)
					}
				}
			case 1:
				cfg.Epilogue32 = func(v []float32) {
					for i := range v {
						v[i] *= 0.5
					}
				}
			}
			if th > 1 && weightsSplit(s.N*s.Group, s.M/s.Group, prod(s.Grid), th) {
				ran++
			}
			ys[th-1] = make([]float32, s.N*s.M*prod(s.Grid))
			if err := Forward(cfg, s, x, w, b, ys[th-1]); err != nil {
				t.Fatal(err)
			}
		}
		for th := 1; th < 3; th++ {
			for i := range ys[0] {
				a, b := ys[0][i], ys[th][i]
				if math.Float32bits(a) != math.Float32bits(b) && !(nanPayloadsOnly && a != a && b != b) {
					t.Fatalf("%d: %+v on %d cores: element %d is %v, on one %v", iter, s, th+1, i, ys[th][i], ys[0][i])
				}
			}
		}
	}
	if ran < 40 {
		t.Errorf("only %d of 120 products split by output channels", ran)
	}
}

// BenchmarkWeightsSplit runs ResNet-50's and MobileNetV2's layers whose
// weights outweigh the image on two cores, split by positions (pos) and
// by output channels (rows).
func BenchmarkWeightsSplit(b *testing.B) {
	defer func(v bool) { splitWeights = v }(splitWeights)
	for _, l := range []struct {
		name       string
		c, m, h, k int
	}{{"r50_1x1_2048to512_7", 2048, 512, 7, 1}, {"r50_1x1_512to2048_7", 512, 2048, 7, 1}, {"r50_1x1_256to1024_14", 256, 1024, 14, 1},
		{"r50_3x3_512_7", 512, 512, 7, 3}, {"mnv2_1x1_320to1280_7", 320, 1280, 7, 1}, {"mnv2_1x1_160to960_7", 160, 960, 7, 1}} {
		p := l.k / 2
		s := Shape{N: 1, C: l.c, M: l.m, Group: 1, Image: []int{l.h, l.h}, Grid: []int{l.h, l.h}, Kernel: []int{l.k, l.k},
			Stride: []int{1, 1}, Dilation: []int{1, 1}, Pad: []int{p, p}}
		r := rand.New(rand.NewPCG(1, 2))
		x, w, bias := randF32(r, l.c*l.h*l.h), randF32(r, l.m*l.c*l.k*l.k), randF32(r, l.m)
		y := make([]float32, l.m*l.h*l.h)
		for _, on := range []bool{false, true} {
			b.Run(l.name+"/"+map[bool]string{false: "pos", true: "rows"}[on], func(b *testing.B) {
				splitWeights = on
				for b.Loop() {
					if err := Forward(Config{Threads: 2}, s, x, w, bias, y); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// specialF32 is n random floats, about one in forty -0, an infinity or NaN.
func specialF32(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		switch r.IntN(120) {
		case 0:
			v[i] = float32(math.Copysign(0, -1))
		case 1:
			v[i] = float32(math.Inf(1 - 2*r.IntN(2)))
		case 2:
			v[i] = float32(math.NaN())
		default:
			v[i] = r.Float32()*2 - 1
		}
	}
	return v
}

// nanPayloadsOnly: without the AVX-512 kernels (386, purego) the Go
// kernels of a split by output channels can return another NaN's payload
// than one core's (found by the 32-bit CI suite, 2026-11-27; to be made
// bit-exact): there the test asks for NaN where one core gives NaN.
var nanPayloadsOnly = !gemm.TransposedPays(64, 49, 64) // true where the AVX-512 kernels are not
