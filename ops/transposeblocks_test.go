package ops

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestTransposeBlocksMatchGo runs the block kernel of this platform (the
// assembly one on amd64) and transposeBlocksGo on random blocks, row
// strides (odd ones included) and offsets, and compares both whole
// destinations: the same elements moved, nothing written outside them.
func TestTransposeBlocksMatchGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for c := range 500 {
		size := []int{2, 4, 8}[c%3]
		b := blockSide(size)
		nj, ni := b*(1+rng.IntN(9)), b*(1+rng.IntN(9))
		// Row strides in elements: at least a row, often odd.
		dRow, sRow := ni+rng.IntN(7), nj+rng.IntN(7)
		dOff, sOff := rng.IntN(5), rng.IntN(5)
		dLen, sLen := dOff+(nj-1)*dRow+ni+rng.IntN(4), sOff+(ni-1)*sRow+nj+rng.IntN(4)
		src := make([]uint64, (sLen*size+7)/8)
		for i := range src {
			src[i] = rng.Uint64()
		}
		got := make([]uint64, (dLen*size+7)/8)
		for i := range got {
			got[i] = 0xdeadbeefcafef00d
		}
		want := append([]uint64{}, got...)
		sp := unsafe.Add(unsafe.Pointer(&src[0]), sOff*size)
		transposeBlocks(size, unsafe.Add(unsafe.Pointer(&got[0]), dOff*size), sp, uintptr(dRow*size), uintptr(sRow*size), nj, ni)
		transposeBlocksGo(size, unsafe.Add(unsafe.Pointer(&want[0]), dOff*size), sp, uintptr(dRow*size), uintptr(sRow*size), nj, ni)
		if !bytes.Equal(asBytes(got), asBytes(want)) {
			t.Fatalf("size %d, %dx%d blocks, strides %d/%d, offsets %d/%d: the kernels differ", size, nj, ni, dRow, sRow, dOff, sOff)
		}
		// The Go kernel itself against the definition.
		for j := range nj {
			for i := range ni {
				d := asBytes(want)[(dOff+j*dRow+i)*size:][:size]
				s := asBytes(src)[(sOff+i*sRow+j)*size:][:size]
				if !bytes.Equal(d, s) {
					t.Fatalf("size %d: element (%d, %d) was not moved", size, j, i)
				}
			}
		}
	}
}

func asBytes(w []uint64) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), len(w)*8)
}
