package movement

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestCopyBytes compares CopyBytes with copy on lengths around the REP
// MOVSB threshold, unequal lengths, odd offsets and overlapping slices.
func TestCopyBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 3))
	buf := make([]byte, 3<<20)
	for i := range buf {
		buf[i] = byte(rng.Uint32())
	}
	for c := range 200 {
		n := []int{0, 1, 63, 64<<10 - 1, 64 << 10, 64<<10 + 1, 800 << 10, 1<<20 + 3}[c%8]
		so, do := rng.IntN(64), rng.IntN(64)
		extra := rng.IntN(3) - 1 // dst shorter, equal or longer
		if c%5 == 0 {
			// Overlapping: both inside one buffer.
			got, want := bytes.Clone(buf), bytes.Clone(buf)
			off := rng.IntN(4096) - 2048
			s0, d0 := 1<<20+so, 1<<20+so+off
			gn := CopyBytes(got[d0:d0+n], got[s0:s0+n])
			wn := copy(want[d0:d0+n], want[s0:s0+n])
			if gn != wn || !bytes.Equal(got, want) {
				t.Fatalf("overlap %d, n %d: differs from copy", off, n)
			}
			continue
		}
		src := buf[so : so+n]
		got := make([]byte, max(0, n+extra)+do)
		want := bytes.Clone(got)
		gn := CopyBytes(got[do:], src)
		wn := copy(want[do:], src)
		if gn != wn || !bytes.Equal(got, want) {
			t.Fatalf("n %d, offsets %d/%d, extra %d: differs from copy", n, so, do, extra)
		}
	}
}
