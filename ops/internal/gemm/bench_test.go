package gemm

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// Benchmarks of the products the operators run, at 1 and 2 threads; each
// reports GFLOPS (2mnk per product) and the fraction of the peak FMA rate
// BenchmarkPeak measures. The machine is shared: run them several times
// (-count) and take the min or median.

var benchShapes = []struct {
	name    string
	m, n, k int
	transB  bool
}{
	{"1024^3", 1024, 1024, 1024, false},
	{"MatMul_4096x512x512", 16 * 256, 512, 512, false},
	{"Conv3x3_64x3136x576", 64, 3136, 576, false},
	{"Conv1x1_256x3136x64", 256, 3136, 64, false},
	{"RNN_8x512x128", 8, 512, 128, false},
	{"RNN_8x512x128_tB", 8, 512, 128, true},
	{"Attn_64x64x64", 64, 64, 64, false},
	{"Small_16x256x256", 16, 256, 256, false},
}

// peakGFLOPS measures the core's FMA rate once: the best of 20 short
// runs of the FMA loop, by wall or CPU time (a shared machine slows some).
var peakGFLOPS = func() func() float64 {
	var g float64
	return func() float64 {
		if g == 0 {
			best := 0.0
			for range 20 {
				start, c0 := time.Now(), cpuSeconds()
				fl := peakFMA(1 << 18)
				if fl == 0 {
					return 0
				}
				wall, cpu := time.Since(start).Seconds(), cpuSeconds()-c0
				best = max(best, fl/wall/1e9)
				if cpu > 0.002 { // rusage ticks are coarse
					best = max(best, fl/cpu/1e9)
				}
			}
			g = best
		}
		return g
	}
}()

func BenchmarkPeak(b *testing.B) {
	var fl float64
	start := cpuSeconds()
	for b.Loop() {
		fl += peakFMA(1 << 16)
	}
	if fl == 0 {
		b.Skip("no FMA loop on this platform")
	}
	b.ReportMetric(fl/b.Elapsed().Seconds()/1e9, "GFLOPS")
	if cpu := cpuSeconds() - start; cpu > 0 {
		b.ReportMetric(fl/cpu/1e9, "GFLOPS-cpu")
	}
}

func BenchmarkFloat32(b *testing.B) {
	peak := peakGFLOPS()
	for _, s := range benchShapes {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/t%d", s.name, threads), func(b *testing.B) {
				r := rand.New(rand.NewPCG(1, 1))
				x := randSlice[float32](r, s.m*s.k)
				y := randSlice[float32](r, s.k*s.n)
				c := make([]float32, s.m*s.n)
				ldb := s.n
				if s.transB {
					ldb = s.k
				}
				cfg := Config{Threads: threads}
				start := cpuSeconds()
				for b.Loop() {
					if err := Float32(cfg, false, s.transB, s.m, s.n, s.k, 1, x, s.k, y, ldb, 0, c, s.n); err != nil {
						b.Fatal(err)
					}
				}
				report(b, s.m, s.n, s.k, threads, peak, start)
			})
		}
	}
}

func BenchmarkFloat32Packed(b *testing.B) {
	peak := peakGFLOPS()
	for _, s := range benchShapes {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/t%d", s.name, threads), func(b *testing.B) {
				r := rand.New(rand.NewPCG(1, 1))
				x := randSlice[float32](r, s.m*s.k)
				y := randSlice[float32](r, s.k*s.n)
				c := make([]float32, s.m*s.n)
				ldb := s.n
				if s.transB {
					ldb = s.k
				}
				cfg := Config{Threads: threads}
				pb, err := PackB32(cfg, s.transB, s.k, s.n, y, ldb)
				if err != nil {
					b.Fatal(err)
				}
				start := cpuSeconds()
				for b.Loop() {
					if err := Float32Packed(cfg, false, s.m, s.n, s.k, 1, x, s.k, pb, 0, c, s.n); err != nil {
						b.Fatal(err)
					}
				}
				report(b, s.m, s.n, s.k, threads, peak, start)
			})
		}
	}
}

func BenchmarkFloat64(b *testing.B) {
	for _, s := range benchShapes[:1] {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/t%d", s.name, threads), func(b *testing.B) {
				r := rand.New(rand.NewPCG(1, 1))
				x := randSlice[float64](r, s.m*s.k)
				y := randSlice[float64](r, s.k*s.n)
				c := make([]float64, s.m*s.n)
				start := cpuSeconds()
				for b.Loop() {
					if err := Float64(Config{Threads: threads}, false, false, s.m, s.n, s.k, 1, x, s.k, y, s.n, 0, c, s.n); err != nil {
						b.Fatal(err)
					}
				}
				report(b, s.m, s.n, s.k, threads, peakGFLOPS()/2, start)
			})
		}
	}
}

// report adds GFLOPS and the percentage of threads cores' peak, by wall
// time, and the CPU milliseconds per product (the time on the cores, which
// a machine shared with other work does not inflate as it does wall time;
// with 2 threads, about twice the wall time on an idle machine). start is
// cpuSeconds() before the loop.
func report(b *testing.B, m, n, k, threads int, peak, start float64) {
	gf := 2 * float64(m) * float64(n) * float64(k) * float64(b.N) / b.Elapsed().Seconds() / 1e9
	b.ReportMetric(gf, "GFLOPS")
	if peak > 0 {
		b.ReportMetric(100*gf/(peak*float64(threads)), "%peak")
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
	if cpu := cpuSeconds() - start; cpu > 0 {
		b.ReportMetric(cpu*1000/float64(b.N), "cpu-ms/op")
		if peak > 0 {
			b.ReportMetric(100*2*float64(m)*float64(n)*float64(k)*float64(b.N)/cpu/1e9/peak, "%peak-cpu")
		}
	}
}

func BenchmarkInteger(b *testing.B) {
	for _, s := range []struct {
		name    string
		m, n, k int
	}{{"1024^3", 1024, 1024, 1024}, {"BERT_128x768x768", 128, 768, 768}, {"RNN_8x512x128", 8, 512, 128}} {
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
				start := cpuSeconds()
				for b.Loop() {
					if err := Integer(Config{Threads: threads}, s.m, s.n, s.k, x, false, s.k, []int32{3}, y, true, s.n, nil, c, s.n); err != nil {
						b.Fatal(err)
					}
				}
				report(b, s.m, s.n, s.k, threads, 0, start)
			})
			b.Run(fmt.Sprintf("%s/packed/t%d", s.name, threads), func(b *testing.B) {
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
				pb, err := PackB8(cfg, s.k, s.n, y, true, s.n)
				if err != nil {
					b.Fatal(err)
				}
				start := cpuSeconds()
				for b.Loop() {
					if err := IntegerPacked(cfg, s.m, s.n, s.k, x, false, s.k, []int32{3}, pb, nil, c, s.n); err != nil {
						b.Fatal(err)
					}
				}
				report(b, s.m, s.n, s.k, threads, 0, start)
			})
		}
	}
}

// BenchmarkKernelSets: one float and one 8-bit product with each kernel
// set this machine runs (AVX-512, AVX2, Go), at one thread.
func BenchmarkKernelSets(b *testing.B) {
	defer useAsm()
	const m, n, k = 128, 768, 768
	r := rand.New(rand.NewPCG(1, 1))
	x := randSlice[float32](r, m*k)
	y := randSlice[float32](r, k*n)
	c := make([]float32, m*n)
	xi, yi, ci := make([]byte, m*k), make([]byte, k*n), make([]int32, m*n)
	for i := range xi {
		xi[i] = byte(r.IntN(256))
	}
	for i := range yi {
		yi[i] = byte(r.IntN(256))
	}
	for _, set := range []struct {
		name string
		use  func()
	}{{"asm", useAsm}, {"avx2", useAVX2}, {"go", useGo}} {
		set.use()
		if set.name != "go" && k32.name == "go" {
			continue
		}
		b.Run("float32/"+k32.name, func(b *testing.B) {
			start := cpuSeconds()
			for b.Loop() {
				if err := Float32(Config{}, false, false, m, n, k, 1, x, k, y, n, 0, c, n); err != nil {
					b.Fatal(err)
				}
			}
			report(b, m, n, k, 1, 0, start)
		})
		b.Run("int8/"+kI.name, func(b *testing.B) {
			start := cpuSeconds()
			for b.Loop() {
				if err := Integer(Config{}, m, n, k, xi, false, k, nil, yi, true, n, nil, ci, n); err != nil {
					b.Fatal(err)
				}
			}
			report(b, m, n, k, 1, 0, start)
		})
	}
}
