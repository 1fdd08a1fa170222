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
		src, dst := make([]float32, 8), make([]float32, 8)
		for i := range src {
			src[i] = -1
		}
		if got := expShiftedBlocks(&dst[0], &src[0], 8, 0, &expConsts); got != 8 {
			t.Fatalf("a block of -1 stops at %d, want 8", got)
		}
		for k, b := range nearHalfway {
			x := math.Float32frombits(b)
			if d := int64(math.Float64bits(math.Exp(float64(x)))&(1<<29-1)) - 1<<28; d <= -64 || d >= 64 {
				t.Fatalf("exp(%v) is %d units from half-way, not within 64", x, d)
			}
			for i := range src {
				src[i] = -1
			}
			src[k%8] = x
			if got := expShiftedBlocks(&dst[0], &src[0], 8, 0, &expConsts); got != 0 {
				t.Errorf("the block with exp(%v) near half-way in lane %d is kept", x, k%8)
			}
		}
	})
}
