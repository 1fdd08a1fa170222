package gemm

// The weights of an implicit product packed once, in the order the
// micro-kernel reads them. Read in place, A's rows are lda apart: a tile
// of mr rows over a block of kc steps is mr streams of kc*4 bytes (1 KB)
// each jumping by lda (18 KB for a 3x3 over 512 channels), which the
// hardware prefetchers follow badly and which touch a page a row. Where
// the weights outweigh the image (ResNet-50's 14x14 and 7x7 layers: 2-9 MB
// of weights for 0.1-0.8 MB of windows) every block of A comes from L3 or
// memory once per product, and those strided streams are most of what the
// model adds to a convolution over its one-node time. Packed, the panels
// of a block of k lie one after the other: the product reads the weights
// as one sequential stream.

// PackedA32 is A (m×k, float32) packed for Float32ImplicitPacked: blocks
// of kcFor(k) steps of k one after the other, each holding every row in
// panels of the kernel's mr rows (the rows rounded up to mr, the pad
// zero); element (q*mr+r, pc+p) of the block at pc at
// pc*mpad + q*mr*kc + p*mr + r (kc that block's steps).
type PackedA32 struct {
	m, k, mr, mpad, kcb int
	data                []float32
}

// M and K are the rows and the steps of k of the packed matrix.
func (pa *PackedA32) M() int { return pa.m }

// K: see M.
func (pa *PackedA32) K() int { return pa.k }

// Bytes is the memory pa holds (0 for nil).
func (pa *PackedA32) Bytes() int64 {
	if pa == nil {
		return 0
	}
	return 4 * int64(len(pa.data))
}

// PackA32 packs A (m×k, row-major, row stride lda) for
// Float32ImplicitPacked with the kernels in use, charging cfg.Charge for
// the copy first. Without a kernel that reads A packed and prefetches it
// (tilePA: AVX-512) it returns nil: a packed stream read without the
// prefetch measured 1.1-1.2x slower than rows read in place, and the
// model would hold a second copy of its weights for it.
func PackA32(cfg Config, m, k int, a []float32, lda int) (*PackedA32, error) {
	if err := check("A", m, k, lda, len(a)); err != nil {
		return nil, err
	}
	kn := k32
	if kn.tilePA == nil || m == 0 || k == 0 {
		return nil, nil
	}
	mr := kn.mr
	mpad := (m + mr - 1) / mr * mr
	elems := mpad * k
	if cfg.Charge != nil {
		if err := cfg.Charge(int64(elems) * 4); err != nil {
			return nil, err
		}
	}
	kcb := kcFor(k)
	pa := &PackedA32{m: m, k: k, mr: mr, mpad: mpad, kcb: kcb, data: make([]float32, elems)}
	for pc := 0; pc < k; pc += kcb {
		if err := cfg.err(); err != nil {
			return nil, err
		}
		kc := min(kcb, k-pc)
		blk := pa.data[pc*mpad : pc*mpad+mpad*kc]
		for i := range m {
			q, r := i/mr, i%mr
			d := blk[q*mr*kc:]
			for p, v := range a[i*lda+pc : i*lda+pc+kc] {
				d[p*mr+r] = v
			}
		}
	}
	return pa, nil
}

// usable reports whether a product of rows [r0, r0+m) of A over k steps
// with the kernels kn can read pa: kn reads A packed in panels of pa's
// rows, k and its blocks are pa's, and r0 starts a panel. The panel of row
// r0+i (i a multiple of mr) in the block at pc is then at
// pc*mpad + (r0+i)*kc.
func (pa *PackedA32) usable(kn *kernels[float32], r0, m, k int) bool {
	return pa != nil && kn.tileP != nil && pa.mr == kn.mr && pa.k == k && pa.kcb == kcFor(k) && r0 >= 0 && r0%kn.mr == 0 && r0+m <= pa.m
}

// Serves reports whether the products over rows [r0, r0+m) of A (k
// steps) read only pa, never A in place, with the kernels in use:
// Float32ImplicitPacked when blocked is false, Float32FinishPacked when it
// is true. Those then take a nil A.
func (pa *PackedA32) Serves(r0, m, k int, blocked bool) bool {
	kn := k32
	if !pa.usable(&kn, r0, m, k) {
		return false
	}
	// The blocked product reads pa with the prefetching kernels only, and
	// one row on one core goes to the row kernels, which read A in place.
	return !blocked || (kn.tilePA != nil && m > 1)
}

// MR is the rows of pa's panels: a product reads pa from row r0 only
// when r0 is a multiple of it.
func (pa *PackedA32) MR() int { return pa.mr }

// Unpack writes A (m×k, row-major, row stride k) back into dst (at least
// m*k elements): the values PackA32 was given.
func (pa *PackedA32) Unpack(dst []float32) {
	mr, mpad := pa.mr, pa.mpad
	for pc := 0; pc < pa.k; pc += pa.kcb {
		kc := min(pa.kcb, pa.k-pc)
		blk := pa.data[pc*mpad : pc*mpad+mpad*kc]
		for i := range pa.m {
			src := blk[i/mr*mr*kc+i%mr:]
			row := dst[i*pa.k+pc : i*pa.k+pc+kc]
			for p := range row {
				row[p] = src[p*mr]
			}
		}
	}
}
