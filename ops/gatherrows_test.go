package ops

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// gatherRows (prefetching the rows ahead, where there is assembly) copies
// exactly the rows a plain loop copies, for row sizes of one and many
// vectors and row counts below and above its prefetch distance.
func TestGatherRowsMatchesALoop(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, rowBytes := range []int{32, 64, 96, 512} {
		for _, n := range []int{1, 7, 15, 16, 17, 40, 1000} {
			const tableRows = 300
			src := make([]byte, tableRows*rowBytes)
			for i := range src {
				src[i] = byte(r.Uint32())
			}
			idx := make([]int64, n)
			for i := range idx {
				idx[i] = int64(r.IntN(tableRows))
			}
			got, want := make([]byte, n*rowBytes), make([]byte, n*rowBytes)
			for i, k := range idx {
				copy(want[i*rowBytes:(i+1)*rowBytes], src[int(k)*rowBytes:(int(k)+1)*rowBytes])
			}
			if !gatherRows(got, src, idx, rowBytes) {
				if gatherRowsAvailable() {
					t.Fatalf("rows of %d bytes: gatherRows declined", rowBytes)
				}
				continue // no vector form on this platform: Gather loops
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("rows of %d bytes, %d rows: the rows differ from a plain loop's", rowBytes, n)
			}
		}
	}
	if gatherRows(make([]byte, 40), make([]byte, 40), []int64{0}, 40) {
		t.Error("rows of 40 bytes (not whole vectors) must be declined")
	}
}
