//go:build amd64 && !purego

package mathf

import "testing"

// The slice tests run with the AVX-512 loops (where the processor has
// them) by default; here once more with the AVX2 loops alone, which must
// give the same bits.
func TestAVX2LoopsWithoutAVX512(t *testing.T) {
	if !haveAVX512 {
		t.Skip("no AVX-512: the other tests ran the AVX2 loops")
	}
	haveAVX512 = false
	defer func() { haveAVX512 = true }()
	t.Run("Slices", TestSlicesMatchScalars)
	t.Run("Activations", TestActivationSlicesMatchScalars)
	t.Run("Trig", TestTrigSlicesMatchScalars)
	t.Run("Pow", TestPowsMatchPow)
	t.Run("Rotate", TestRotateVectorLoopKeepsTheScalarBits)
	t.Run("RotateRows", TestRotateRowsIsRotateByRow)
}
