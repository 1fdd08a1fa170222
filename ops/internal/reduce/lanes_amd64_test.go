//go:build amd64 && !purego

package reduce

import "testing"

// forEachSumKernel runs f with rowSumsF32 taking each of its kernels that
// the processor runs: AVX-512, AVX2, and Go's loop.
func forEachSumKernel(t *testing.T, f func(*testing.T)) {
	saved512, saved2 := haveSumAVX512, haveSumAVX2
	defer func() { haveSumAVX512, haveSumAVX2 = saved512, saved2 }()
	if saved512 {
		t.Run("AVX-512", f)
	}
	haveSumAVX512 = false
	if saved2 {
		t.Run("AVX2", f)
	}
	haveSumAVX2 = false
	t.Run("Go", f)
}
