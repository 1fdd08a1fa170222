//go:build amd64 && !purego

package reduce

import "testing"

// forEachExpKernel runs f with expShifted taking each of its kernels that
// the processor runs: AVX-512, AVX2, and exp32 one element at a time.
func forEachExpKernel(t *testing.T, f func(t *testing.T)) {
	saved512, saved2 := haveExp32AVX512, haveExp32AVX2
	defer func() { haveExp32AVX512, haveExp32AVX2 = saved512, saved2 }()
	if saved512 {
		t.Run("AVX-512", f)
	}
	haveExp32AVX512 = false
	if saved2 {
		t.Run("AVX2", f)
	}
	haveExp32AVX2 = false
	t.Run("Go", f)
}
