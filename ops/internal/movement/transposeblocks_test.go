package movement

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/onnxshape/onnxshape/tensor"
)

// TestTransposeBlocksMatchGo runs the block kernel of this platform (the
// assembly one on amd64) and transposeBlocksGo on random blocks, row
// strides (odd ones included) and offsets, and compares both whole
// destinations: the same elements moved, nothing written outside them.
// Every other case asks for streaming stores on a destination and rows on
// 16 bytes (the stores the kernel then uses), the others ask on any
// destination (which the kernel must write as usual); the prefetch
// distance varies, beyond the source's end too.
func TestTransposeBlocksMatchGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for c := range 600 {
		size := []int{2, 4, 8}[c%3]
		b := blockSide(size)
		nj, ni := b*(1+rng.IntN(9)), b*(1+rng.IntN(9))
		// Row strides in elements: at least a row, often odd.
		dRow, sRow := ni+rng.IntN(7), nj+rng.IntN(7)
		dOff, sOff := rng.IntN(5), rng.IntN(5)
		stream := c%2 == 0 || rng.IntN(2) == 0
		if c%2 == 0 {
			line := 16 / size
			dRow, dOff = (dRow+line-1)/line*line, dOff/line*line
		}
		pf := uintptr(64 * rng.IntN(5))
		dLen, sLen := dOff+(nj-1)*dRow+ni+rng.IntN(4), sOff+(ni-1)*sRow+nj+rng.IntN(4)
		src := make([]uint64, (sLen*size+7)/8)
		for i := range src {
			src[i] = rng.Uint64()
		}
		got := aligned16((dLen*size + 7) / 8)
		for i := range got {
			got[i] = 0xdeadbeefcafef00d
		}
		want := append([]uint64{}, got...)
		sp := unsafe.Add(unsafe.Pointer(&src[0]), sOff*size)
		transposeBlocks(size, unsafe.Add(unsafe.Pointer(&got[0]), dOff*size), sp, uintptr(dRow*size), uintptr(sRow*size), nj, ni, pf, stream)
		StoreFence()
		transposeBlocksGo(size, unsafe.Add(unsafe.Pointer(&want[0]), dOff*size), sp, uintptr(dRow*size), uintptr(sRow*size), nj, ni)
		if !bytes.Equal(asBytes(got), asBytes(want)) {
			t.Fatalf("size %d, %dx%d blocks, strides %d/%d, offsets %d/%d, stream %v, prefetch %d: the kernels differ", size, nj, ni, dRow, sRow, dOff, sOff, stream, pf)
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

// TestDeinterleave2 splits random pairs with the kernel of this platform
// and checks both rows and that nothing else was written.
//
// With streaming stores asked for, the rows start on 16 bytes in one case
// of two (the kernel streams) and anywhere in the other (it must not).
func TestDeinterleave2(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 6))
	for c := range 120 {
		n, stream := c%40, c >= 40
		src := make([]uint32, 2*n+1)
		for i := range src {
			src[i] = rng.Uint32()
		}
		// Rows at d[a:] and d[b:]; with c >= 80 both on 16 bytes.
		a, b := 1, n+2
		if c >= 80 {
			a, b = 4, 4+(n+3)&^3
		}
		d := AsElems[uint32](asBytes(aligned16(b + n + 2)))
		for i := range d {
			d[i] = 0xdeadbeef
		}
		k := deinterleave2(unsafe.Pointer(&d[a]), unsafe.Pointer(&d[b]), unsafe.Pointer(&src[0]), n, stream)
		StoreFence()
		if k > n || k%4 != 0 {
			t.Fatalf("n %d: split %d pairs", n, k)
		}
		for i := range d {
			want := uint32(0xdeadbeef)
			switch {
			case i >= a && i < a+k:
				want = src[2*(i-a)]
			case i >= b && i < b+k:
				want = src[2*(i-b)+1]
			}
			if d[i] != want {
				t.Fatalf("n %d, stream %v, rows at %d and %d: element %d is %x, want %x", n, stream, a, b, i, d[i], want)
			}
		}
	}
}

func asBytes(w []uint64) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), len(w)*8)
}

// aligned16 returns n words whose first starts on 16 bytes, as streaming
// stores need.
func aligned16(n int) []uint64 {
	w := make([]uint64, n+1)
	if uintptr(unsafe.Pointer(&w[0]))%16 != 0 {
		return w[1 : n+1]
	}
	return w[:n]
}

// TestSpaceToDepthPlans runs SpaceToDepth-shaped plans (rows read from
// pairs) with 4-byte and other elements on widths that are and are not
// multiples of 4, against the plan's definition.
func TestSpaceToDepthPlans(t *testing.T) {
	for _, dt := range []tensor.DataType{tensor.Float, tensor.Int32, tensor.Float16, tensor.Double} {
		for _, w := range []int{8, 9, 12, 15, 16, 33} {
			p := permutedPlan([]int{2, 3, 5, 2, w, 2}, []int{0, 3, 5, 1, 2, 4})
			src := randomTensor(rand.New(rand.NewPCG(uint64(w), 1)), dt, []int{2 * 3 * 5 * 2 * w * 2})
			got, want := tensor.MustNew(dt, src.Len()), planDefinition(p, src, src.Len())
			p.Run(Env{Threads: 1}, got, src)
			if !got.Equal(want) {
				t.Fatalf("%v, width %d: the copy differs from its definition", dt, w)
			}
		}
	}
}

// TestPickEven picks the even elements of random rows with the kernel of
// this platform, from a source that ends at the last element asked for,
// and checks what it copied and that it wrote nothing else.
func TestPickEven(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 1))
	for n := 1; n <= 60; n++ {
		src := make([]uint32, 2*n-1)
		for i := range src {
			src[i] = rng.Uint32()
		}
		d := make([]uint32, n+2)
		for i := range d {
			d[i] = 0xdeadbeef
		}
		k := pickEven(unsafe.Pointer(&d[1]), unsafe.Pointer(&src[0]), n)
		if k > n-1 || k%4 != 0 {
			t.Fatalf("n %d: picked %d elements", n, k)
		}
		for i := range d {
			want := uint32(0xdeadbeef)
			if i >= 1 && i < 1+k {
				want = src[2*(i-1)]
			}
			if d[i] != want {
				t.Fatalf("n %d: element %d is %x, want %x", n, i, d[i], want)
			}
		}
	}
}
