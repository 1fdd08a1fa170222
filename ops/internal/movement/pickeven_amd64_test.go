//go:build amd64 && !purego

package movement

import "testing"

// TestPickEvenSSE runs TestPickEven on the loop of four elements that a
// processor without AVX2 takes.
func TestPickEvenSSE(t *testing.T) {
	defer func(v bool) { haveAVX2 = v }(haveAVX2)
	haveAVX2 = false
	TestPickEven(t)
}
