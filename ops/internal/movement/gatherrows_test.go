package movement

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// GatherRows (prefetching the rows ahead, where there is assembly) copies
// exactly the rows a plain loop copies, for row sizes of one and many
// vectors and row counts below and above its prefetch distance, with
// plain and with streaming stores (to an aligned and a misaligned output,
// which falls back to plain stores).
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
			want := make([]byte, n*rowBytes)
			for i, k := range idx {
				copy(want[i*rowBytes:(i+1)*rowBytes], src[int(k)*rowBytes:(int(k)+1)*rowBytes])
			}
			for _, c := range []struct {
				stream bool
				offset int
			}{{false, 0}, {true, 0}, {true, 8}} {
				buf := make([]byte, n*rowBytes+64)
				base := (32 - int(uintptr(unsafe.Pointer(&buf[0]))%32)) % 32 // buf[base] is 32-byte aligned
				got := buf[base+c.offset : base+c.offset+n*rowBytes]
				if !GatherRows(got, src, idx, rowBytes, c.stream) {
					if GatherRowsAvailable() {
						t.Fatalf("rows of %d bytes: GatherRows declined", rowBytes)
					}
					continue // no vector form on this platform: Gather loops
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("rows of %d bytes, %d rows, stream %v, offset %d: the rows differ from a plain loop's", rowBytes, n, c.stream, c.offset)
				}
			}
		}
	}
	if GatherRows(make([]byte, 40), make([]byte, 40), []int64{0}, 40, false) {
		t.Error("rows of 40 bytes (not whole vectors) must be declined")
	}
}
