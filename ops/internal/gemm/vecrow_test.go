package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestVecRowBits checks that a product of one row gives the same bits
// through the row kernels as through the tile kernel: B in place and
// packed, widths of whole groups of panels, of a group and a partial
// panel, and k over several blocks.
func TestVecRowBits(t *testing.T) {
	if !vecRowKernels || k32.name != "avx512" {
		t.Skip("no row kernels here")
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{128, 256, 384, 512, 520, 1000} {
		for _, k := range []int{1, 7, 128, 300, 600} {
			for _, beta := range []float32{0, 1, 0.5} {
				a := make([]float32, k)
				b := make([]float32, k*(n+3))
				c0 := make([]float32, n)
				for i := range a {
					a[i] = r.Float32()*2 - 1
				}
				for i := range b {
					b[i] = r.Float32()*2 - 1
				}
				for i := range c0 {
					c0[i] = r.Float32()*2 - 1
				}
				ldb := n + 3
				pb, err := PackB32(Config{}, false, k, n, b, ldb)
				if err != nil {
					t.Fatal(err)
				}
				for _, packed := range []bool{false, true} {
					run := func(on bool) []float32 {
						vecRowOn = on && vecRowKernels
						defer func() { vecRowOn = vecRowKernels }()
						c := append([]float32(nil), c0...)
						var err error
						if packed {
							err = Float32Packed(Config{Threads: 1}, false, 1, n, k, 1, a, k, pb, beta, c, n)
						} else {
							err = Float32(Config{Threads: 1}, false, false, 1, n, k, 1, a, k, b, ldb, beta, c, n)
						}
						if err != nil {
							t.Fatal(err)
						}
						return c
					}
					want, got := run(false), run(true)
					name := fmt.Sprintf("n %d k %d beta %g packed %v", n, k, beta, packed)
					for j := range want {
						if math.Float32bits(want[j]) != math.Float32bits(got[j]) {
							t.Fatalf("%s: C[%d] = %g, the tile kernel gives %g", name, j, got[j], want[j])
						}
					}
				}
			}
		}
	}
}

// BenchmarkVecRow times one row times a 256 KB B (a recurrent step's
// product at batch 1), packed and in place, with the row kernels and
// without.
func BenchmarkVecRow(b *testing.B) {
	for _, c := range []struct {
		n, k   int
		packed bool
	}{{512, 128, true}, {512, 128, false}, {256, 256, false}, {256, 256, true}} {
		a := make([]float32, c.k)
		bb := make([]float32, c.k*c.n)
		for i := range bb {
			bb[i] = float32(i%7) * 0.1
		}
		cc := make([]float32, c.n)
		pb, _ := PackB32(Config{}, false, c.k, c.n, bb, c.n)
		for _, on := range []bool{false, true} {
			b.Run(fmt.Sprintf("n%d-k%d-packed-%v-vec-%v", c.n, c.k, c.packed, on), func(b *testing.B) {
				vecRowOn = on
				defer func() { vecRowOn = vecRowKernels }()
				cpu := cpuSeconds()
				for b.Loop() {
					if c.packed {
						Float32Packed(Config{Threads: 1}, false, 1, c.n, c.k, 1, a, c.k, pb, 1, cc, c.n)
					} else {
						Float32(Config{Threads: 1}, false, false, 1, c.n, c.k, 1, a, c.k, bb, c.n, 1, cc, c.n)
					}
				}
				b.ReportMetric((cpuSeconds()-cpu)*1e9/float64(b.N), "cpu-ns/op")
			})
		}
	}
}
