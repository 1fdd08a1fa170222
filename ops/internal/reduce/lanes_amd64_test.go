//go:build amd64 && !purego

package reduce

import "testing"

// forEachKernel runs f with the vector kernels of rowSumsF32 and
// expShifted taking each form the processor runs: AVX-512, AVX2, and the
// Go loops.
func forEachKernel(t *testing.T, f func(*testing.T)) {
	sum512, sum2, exp512, exp2 := haveSumAVX512, haveSumAVX2, haveExp32AVX512, haveExp32AVX2
	defer func() { haveSumAVX512, haveSumAVX2, haveExp32AVX512, haveExp32AVX2 = sum512, sum2, exp512, exp2 }()
	if sum512 && exp512 {
		t.Run("AVX-512", f)
	}
	haveSumAVX512, haveExp32AVX512 = false, false
	if sum2 && exp2 {
		t.Run("AVX2", f)
	}
	haveSumAVX2, haveExp32AVX2 = false, false
	t.Run("Go", f)
}
