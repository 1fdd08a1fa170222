package gemm

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"testing"
	"time"
)

// TestTransposedFractions prints, for the few-column products of the CNNs
// (ResNet-50's last stage, MobileNetV2's 7x7 planes), the least thread
// CPU time (one core) and wall time (two) of the usual tiles
// (Float32Finish, A in place) and of the transposed ones
// (Float32PackedAT), alternated call by call. Run with
// GEMM_FRACTIONS=1 go test -run TestTransposedFractions -v.
func TestTransposedFractions(t *testing.T) {
	if os.Getenv("GEMM_FRACTIONS") == "" {
		t.Skip("GEMM_FRACTIONS not set")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for _, s := range []struct{ m, n, k int }{
		{512, 49, 4608}, {512, 49, 2048}, {2048, 49, 512}, {2048, 49, 1024},
		{1280, 49, 320}, {960, 49, 160}, {320, 49, 960}, {160, 49, 960},
	} {
		r := rand.New(rand.NewPCG(1, 1))
		a := randSlice[float32](r, s.m*s.k)
		b := randSlice[float32](r, s.k*s.n)
		c := make([]float32, s.m*s.n)
		fin := Finish{Bias: randSlice[float32](r, s.m)}
		pa, err := PackAT32(Config{}, s.m, s.k, a, s.k)
		if err != nil {
			t.Fatal(err)
		}
		line := fmt.Sprintf("%4dx%2dx%4d", s.m, s.n, s.k)
		for _, threads := range []int{1, 2} {
			cfg := Config{Threads: threads}
			best := [2]float64{1e9, 1e9}
			for range 40 {
				for v := range 2 {
					c0, w0 := threadCPU(), time.Now()
					if v == 0 {
						err = Float32Finish(cfg, s.m, s.n, s.k, a, s.k, b, s.n, c, s.n, fin)
					} else {
						err = Float32PackedAT(cfg, s.m, s.n, s.k, pa, b, s.n, c, s.n, fin)
					}
					if err != nil {
						t.Fatal(err)
					}
					d := threadCPU() - c0
					if threads > 1 {
						d = time.Since(w0).Seconds()
					}
					best[v] = min(best[v], d)
				}
			}
			line += fmt.Sprintf("   t%d tiles %7.3fms transposed %7.3fms (%.2fx)", threads, best[0]*1e3, best[1]*1e3, best[0]/best[1])
		}
		t.Log(line)
	}
}
