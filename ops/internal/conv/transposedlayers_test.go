package conv

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"testing"
	"time"
)

// TestTransposedLayers prints the least process CPU time (one core) and
// wall time (two) of ResNet-50's last-stage and MobileNetV2's 7x7
// convolutions with the weights read in place and with them packed for
// the transposed tiles (Config.WeightsT), alternated call by call, and
// checks that both give the same bits. Run with CONV_LAYERS=1 go test
// -run TestTransposedLayers -v.
func TestTransposedLayers(t *testing.T) {
	if os.Getenv("CONV_LAYERS") == "" {
		t.Skip("CONV_LAYERS not set")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for _, l := range []struct {
		name        string
		c, m, kk, p int
	}{
		{"r50 3x3 512->512 (implicit, not transposed)", 512, 512, 3, 1},
		{"r50 1x1 512->2048", 512, 2048, 1, 0},
		{"r50 1x1 2048->512", 2048, 512, 1, 0},
		{"mbv2 1x1 160->960", 160, 960, 1, 0},
		{"mbv2 1x1 960->160", 960, 160, 1, 0},
		{"mbv2 1x1 320->1280", 320, 1280, 1, 0},
	} {
		s := Shape{N: 1, C: l.c, M: l.m, Group: 1, Image: []int{7, 7}, Grid: []int{7, 7}, Kernel: []int{l.kk, l.kk}, Stride: []int{1, 1}, Dilation: []int{1, 1}, Pad: []int{l.p, l.p, l.p, l.p}}
		r := rand.New(rand.NewPCG(1, 2))
		x := make([]float32, l.c*49)
		w := make([]float32, l.m*l.c*l.kk*l.kk)
		b := make([]float32, l.m)
		for _, v := range [][]float32{x, w, b} {
			for i := range v {
				v[i] = float32(r.NormFloat64())
			}
		}
		pa, err := PackWeightsT(Config{}, l.m, l.c*l.kk*l.kk, w)
		if err != nil {
			t.Fatal(err)
		}
		y := [2][]float32{make([]float32, l.m*49), make([]float32, l.m*49)}
		line := fmt.Sprintf("%-20s", l.name)
		for _, threads := range []int{1, 2} {
			best := [2]float64{1e9, 1e9}
			for range 30 {
				for v := range 2 {
					cfg := Config{Threads: threads, Clamp32: &[2]float32{0, float32(1e38)}}
					if v == 1 {
						cfg.WeightsT = pa
					}
					c0, w0 := cpuSeconds(), time.Now()
					if err := Forward(cfg, s, x, w, b, y[v]); err != nil {
						t.Fatal(err)
					}
					d := cpuSeconds() - c0
					if threads > 1 {
						d = time.Since(w0).Seconds()
					}
					best[v] = min(best[v], d)
				}
				for i := range y[0] {
					if y[0][i] != y[1][i] {
						t.Fatalf("%s: y[%d] %v, transposed %v", l.name, i, y[0][i], y[1][i])
					}
				}
			}
			line += fmt.Sprintf("  t%d %.3f -> %.3f ms (%.2fx)", threads, best[0]*1e3, best[1]*1e3, best[0]/best[1])
		}
		t.Log(line)
	}
}
