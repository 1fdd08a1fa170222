package gemm

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"testing"
	"time"
)

// TestFractions prints, for each class of product the operators run, the
// fraction of the FMA peak it reaches on one core: the minimum over many
// calls of the calling thread's CPU time (a loaded machine inflates wall
// time, and the minimum of thread CPU time is the steadiest figure it
// gives), against the minimum of the FMA loop measured the same way. Two
// threads: the minimum wall time. Run with GEMM_FRACTIONS=1 (and -v;
// GEMM_FRACTIONS=t1: one thread, B packed per call only).
func TestFractions(t *testing.T) {
	if os.Getenv("GEMM_FRACTIONS") == "" {
		t.Skip("GEMM_FRACTIONS not set")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	reps := 30
	peak := 0.0
	for range 200 {
		c0 := threadCPU()
		fl := peakFMA(1 << 14)
		if fl == 0 {
			t.Skip("no FMA loop")
		}
		if d := threadCPU() - c0; d > 0 {
			peak = max(peak, fl/d/1e9)
		}
	}
	t.Logf("peak %.0f GFLOPS/core (kernels %s %dx%d)", peak, k32.name, k32.mr, k32.nr)
	for _, s := range fractionShapes {
		r := rand.New(rand.NewPCG(1, 1))
		x := randSlice[float32](r, s.m*s.k)
		y := randSlice[float32](r, s.k*s.n)
		c := make([]float32, s.m*s.n)
		pb, err := PackB32(Config{}, false, s.k, s.n, y, s.n)
		if err != nil {
			t.Fatal(err)
		}
		fl := 2 * float64(s.m) * float64(s.n) * float64(s.k)
		line := fmt.Sprintf("%-28s", s.name)
		for _, packed := range []bool{false, true} {
			if os.Getenv("GEMM_FRACTIONS") == "t1" && packed {
				continue
			}
			for _, threads := range fracThreads() {
				cfg := Config{Threads: threads}
				best := 1e9
				for range reps {
					c0, w0 := threadCPU(), time.Now()
					if packed {
						err = Float32Packed(cfg, false, s.m, s.n, s.k, 1, x, s.k, pb, 0, c, s.n)
					} else {
						err = Float32(cfg, false, false, s.m, s.n, s.k, 1, x, s.k, y, s.n, 0, c, s.n)
					}
					if err != nil {
						t.Fatal(err)
					}
					d := threadCPU() - c0
					if threads > 1 {
						d = time.Since(w0).Seconds()
					}
					best = min(best, d)
				}
				line += fmt.Sprintf("  %s t%d %7.3fms %3.0f%%", map[bool]string{false: "plain ", true: "packed"}[packed], threads, best*1e3, 100*fl/best/1e9/(peak*float64(threads)))
			}
		}
		t.Log(line)
	}
}

var fractionShapes = []struct {
	name    string
	m, n, k int
}{
	{"square 1024^3", 1024, 1024, 1024},
	{"MatMul 4096x512x512", 4096, 512, 512},
	{"64-row conv3x3 64x3136x576", 64, 3136, 576},
	{"64-row conv1x1 64x3136x64", 64, 3136, 64},
	{"conv1x1 256x3136x64", 256, 3136, 64},
	{"128-row 128x784x1152", 128, 784, 1152},
	{"N tail 256x196x2304", 256, 196, 2304},
	{"N tail 512x49x4608", 512, 49, 4608},
	{"small M 8x512x128", 8, 512, 128},
	{"small M 1x1000x2048", 1, 1000, 2048},
	{"M tail 30x512x256", 30, 512, 256},
	{"xformer 128x256x256", 128, 256, 256},
	{"xformer 128x1024x256", 128, 1024, 256},
	{"xformer 128x256x1024", 128, 256, 1024},
	{"mbv2 32x12544x16", 32, 12544, 16},
	{"mbv2 144x3136x24", 144, 3136, 24},
	{"mbv2 24x3136x144", 24, 3136, 144},
	{"mbv2 1280x49x320", 1280, 49, 320},
}

func fracThreads() []int {
	if os.Getenv("GEMM_FRACTIONS") == "t1" {
		return []int{1}
	}
	return []int{1, 2}
}
