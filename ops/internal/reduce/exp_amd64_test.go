//go:build amd64 && !purego

package reduce

import (
	"math"
	"testing"

	"golang.org/x/sys/cpu"
)

// forEachExpKernel runs f with expShiftedBlocks set to each block kernel
// the processor runs, AVX2 and AVX-512.
func forEachExpKernel(t *testing.T, f func(t *testing.T)) {
	saved := expShiftedBlocks
	defer func() { expShiftedBlocks = saved }()
	expShiftedBlocks = expShifted8
	t.Run("avx2", f)
	if cpu.X86.HasAVX512F {
		expShiftedBlocks = expShifted8AVX512
		t.Run("avx512", f)
	}
}

// TestExpBlocksStopNearHalfway checks that each block kernel leaves to
// math.Exp a block with a lane whose float64 exponential lies within 64
// units of half-way between two float32s (found by scanning math.Exp over
// [-20, -1]), where its own few units of error could round the other way,
// and keeps a block without one.
func TestExpBlocksStopNearHalfway(t *testing.T) {
	nearHalfway := []uint32{0xbf81eadf, 0xbfab7ce4, 0xbfbfa14b, 0xbffc842d, 0xc03359cb, 0xc0382e72, 0xc0781533, 0xc13d6631, 0xc159fa1e, 0xc16912cd, 0xc1963bdb}
	forEachExpKernel(t, func(t *testing.T) {
		// Blocks of 8 and pairs of them (16): the kernel stops before the
		// block with the lane near half-way.
		for _, n := range []int{8, 16} {
			src, dst := make([]float32, n), make([]float32, n)
			for i := range src {
				src[i] = -1
			}
			if got := expShiftedBlocks(&dst[0], &src[0], n, 0, &expConsts); got != n {
				t.Fatalf("%d elements of -1 stop at %d, want %d", n, got, n)
			}
			for k, b := range nearHalfway {
				x := math.Float32frombits(b)
				if d := int64(math.Float64bits(math.Exp(float64(x)))&(1<<29-1)) - 1<<28; d <= -64 || d >= 64 {
					t.Fatalf("exp(%v) is %d units from half-way, not within 64", x, d)
				}
				for i := range src {
					src[i] = -1
				}
				lane := (3 * k) % n
				src[lane] = x
				if got, want := expShiftedBlocks(&dst[0], &src[0], n, 0, &expConsts), lane&^7; got != want {
					t.Errorf("%d elements with exp(%v) near half-way at %d stop at %d, want %d", n, x, lane, got, want)
				}
			}
		}
	})
}
