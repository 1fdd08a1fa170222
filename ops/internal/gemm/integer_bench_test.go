package gemm

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkIntegerShapes measures the 8-bit product on the shapes the
// quantized operators give it: a 1x1 and a 3x3 convolution of 64 channels
// on 56x56 (A the weights, B the image or its im2col tile) and the
// projections of a BERT-base block (A the activations, B the weights,
// packed at load). Its cpu-ms/op is the figure to read on a loaded machine.
func BenchmarkIntegerShapes(b *testing.B) {
	for _, s := range []struct {
		name    string
		m, n, k int
		packed  bool
	}{
		{"conv1x1_256x3136x64", 256, 3136, 64, false},
		{"conv3x3_64x3136x576", 64, 3136, 576, false},
		{"bert_128x768x768", 128, 768, 768, true},
		{"bert_128x3072x768", 128, 3072, 768, true},
		{"mlp_64x512x512", 64, 512, 512, true},
	} {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/t%d", s.name, threads), func(b *testing.B) {
				r := rand.New(rand.NewPCG(1, 1))
				x := make([]byte, s.m*s.k)
				y := make([]byte, s.k*s.n)
				for i := range x {
					x[i] = byte(r.IntN(256))
				}
				for i := range y {
					y[i] = byte(r.IntN(256))
				}
				c := make([]int32, s.m*s.n)
				cfg := Config{Threads: threads}
				var pb *PackedB8
				if s.packed {
					var err error
					if pb, err = PackB8(cfg, s.k, s.n, y, true, s.n); err != nil {
						b.Fatal(err)
					}
				}
				start := cpuSeconds()
				for b.Loop() {
					var err error
					if pb != nil {
						err = IntegerPacked(cfg, s.m, s.n, s.k, x, false, s.k, []int32{3}, pb, nil, c, s.n)
					} else {
						err = Integer(cfg, s.m, s.n, s.k, x, true, s.k, nil, y, false, s.n, []int32{128}, c, s.n)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				report(b, s.m, s.n, s.k, threads, 0, start)
			})
		}
	}
}
