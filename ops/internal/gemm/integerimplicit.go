package gemm

import (
	"encoding/binary"
	"fmt"

	"github.com/onnxshape/onnxshape/ops/internal/parallel"
)

// The 8-bit implicit product: C = (A - aZero)(B - bZero) in int32 where A
// (the weights of an int8 convolution) was packed once by PackA8, with its
// row sums, and B (the image's windows) is never stored: the caller's
// Filler8 writes its raw bytes straight into the micro-kernel's panels a
// block at a time, as Float32Implicit does for float32. The engine then
// flips the block to signed (b' = b-128 for uint8, integer.go) and adds up
// its column sums in one pass over the panels (finishB: AVX-512 VNNI on
// full panels, Go otherwise), and corrects the zero points as
// integerBlocked does. Exact in int32, as Integer.

// PackedA8 is an m×k 8-bit matrix A packed once (PackA8) for
// IntegerImplicit: panels of mrI rows by quads of k per block of kcBlockI
// (packAI's layout, each byte as a' = a+128 when A is signed), with the
// sums of its rows as a'.
type PackedA8 struct {
	m, k    int
	signed  bool
	data    []byte
	rowSums []int32
}

// PackA8 packs A (m×k, row stride lda, signed or not as aSigned says),
// charging its bytes to cfg.Charge before allocating them.
func PackA8(cfg Config, m, k int, a []byte, aSigned bool, lda int) (*PackedA8, error) {
	if err := check("A", m, k, lda, len(a)); err != nil {
		return nil, err
	}
	panels := (m + mrI - 1) / mrI
	size := int64((k+3)/4*4) * int64(panels*mrI)
	if cfg.Charge != nil {
		if err := cfg.Charge(size + 4*int64(m)); err != nil {
			return nil, err
		}
	}
	var flip byte
	if aSigned {
		flip = 0x80
	}
	p := &PackedA8{m: m, k: k, signed: aSigned, data: make([]byte, size), rowSums: make([]int32, m)}
	for pc := 0; pc < k; pc += kcBlockI {
		if err := cfg.err(); err != nil {
			return nil, err
		}
		if m > 0 {
			packAI(p.data[pc*panels*mrI:], a, lda, flip, 0, m, pc, min(kcBlockI, k-pc), p.rowSums)
		}
	}
	return p, nil
}

// Bytes is the memory the packed matrix holds.
func (p *PackedA8) Bytes() int64 { return int64(len(p.data)) + 4*int64(len(p.rowSums)) }

// M and K are the sizes of A as packed: m×k.
func (p *PackedA8) M() int { return p.m }

// K is the number of columns of A.
func (p *PackedA8) K() int { return p.k }

// block returns the panels of the block of k at pc.
func (p *PackedA8) block(pc int) []byte {
	return p.data[pc*((p.m+mrI-1)/mrI)*mrI:]
}

// Filler8 writes a block of B, rows [pc, pc+kc) and columns [j0, j0+nc),
// as B's raw bytes into panels of NR8() columns by quads of rows: the
// byte of (pc+p, j0+j) at dst[(j/nr)*k4*nr*4 + (p/4)*nr*4 + (j%nr)*4 +
// p%4], with nr = NR8() and k4 = ceil(kc/4). The bytes of the last quad's
// rows past kc and of the last panel's columns past nc may hold anything.
type Filler8 func(dst []byte, pc, kc, j0, nc int)

// NR8 is the panel width a Filler8 writes.
func NR8() int { return nrI }

// implicitPlanI returns the workers, the columns of one block and the
// scratch bytes (all workers) of an 8-bit implicit product.
func implicitPlanI(n, k, threads int) (workers, ncBlock int, bytes int64) {
	panels := (n + nrI - 1) / nrI
	workers = max(1, min(threads, panels))
	per := (panels + workers - 1) / workers * nrI
	ncBlock = min(per, ncBlockI)
	k4 := (min(k, kcBlockI) + 3) / 4
	return workers, ncBlock, int64(workers) * (int64(k4*4*ncBlock) + 8*int64(ncBlock))
}

// ImplicitScratch8 returns the bytes of scratch IntegerImplicit charges
// for a product of n columns over k on threads cores.
func ImplicitScratch8(n, k, threads int) int64 {
	_, _, b := implicitPlanI(n, k, max(threads, 1))
	return b
}

// IntegerImplicit computes C[i][j] = sum over p of (A[i][p]-aZero[i]) *
// (B[p][j]-bZero[j]) in int32 (wrapping), A m×k packed by PackA8, B k×n
// written by fill a block at a time (signed or not as bSigned says), C
// m×n (row stride ldc, not read). aZero has 1 or m elements, bZero 1 or
// n; nil means 0. The scratch (ImplicitScratch8) is taken through
// cfg.Scratch (or charged to cfg.Charge) before any work; the context is
// checked between blocks; the columns are split over cfg.Threads cores.
// fill must be safe to call from several goroutines on distinct blocks.
func IntegerImplicit(cfg Config, m, n, k int, pa *PackedA8, aZero []int32, fill Filler8, bSigned bool, bZero []int32, c []int32, ldc int) error {
	if fill == nil {
		return fmt.Errorf("%w: no filler for B", ErrShape)
	}
	return integerPackedA(cfg, m, n, k, pa, aZero, fill, nil, 0, bSigned, bZero, c, ldc)
}

// IntegerPackedA is Integer with A packed by PackA8 and B stored (k×n,
// row stride ldb): B is packed a block at a time as Integer packs it (one
// pass: flip, interleave and column sums), under IntegerImplicit's
// scratch, context and threads.
func IntegerPackedA(cfg Config, m, n, k int, pa *PackedA8, aZero []int32, b []byte, bSigned bool, ldb int, bZero []int32, c []int32, ldc int) error {
	if err := check("B", k, n, ldb, len(b)); err != nil {
		return err
	}
	return integerPackedA(cfg, m, n, k, pa, aZero, nil, b, ldb, bSigned, bZero, c, ldc)
}

// integerPackedA is IntegerImplicit with B from fill or, when fill is
// nil, from b.
func integerPackedA(cfg Config, m, n, k int, pa *PackedA8, aZero []int32, fill Filler8, b []byte, ldb int, bSigned bool, bZero []int32, c []int32, ldc int) error {
	switch {
	case pa == nil:
		return fmt.Errorf("%w: no packed A", ErrShape)
	case pa.m != m || pa.k != k:
		return fmt.Errorf("%w: A packed as %dx%d, product needs %dx%d", ErrShape, pa.m, pa.k, m, k)
	case len(aZero) > 1 && len(aZero) != m:
		return fmt.Errorf("%w: %d zero points for %d rows of A", ErrShape, len(aZero), m)
	case len(bZero) > 1 && len(bZero) != n:
		return fmt.Errorf("%w: %d zero points for %d columns of B", ErrShape, len(bZero), n)
	}
	if err := check("C", m, n, ldc, len(c)); err != nil {
		return err
	}
	if err := cfg.err(); err != nil || m == 0 || n == 0 {
		return err
	}
	if k == 0 {
		for i := range m {
			clear(c[i*ldc : i*ldc+n])
		}
		return nil
	}
	var flipB byte
	var shiftA, shiftB int32
	if pa.signed {
		shiftA = 128
	}
	if !bSigned {
		flipB, shiftB = 0x80, -128
	}
	needRows := rowSumsNeeded(bZero, shiftB)
	needCols := rowSumsNeeded(aZero, shiftA) // some za' = za+shiftA is not 0

	threads := max(cfg.Threads, 1)
	work := int(min(float64(m)*float64(n)*float64(k)/128, 1<<40))
	if work < parallel.Work {
		threads = 1
	}
	workers, ncBlock, scratch := implicitPlanI(n, k, threads)
	if err := cfg.Scratch.take(cfg, scratch); err != nil {
		return err
	}
	defer cfg.Scratch.give(scratch)
	k40 := (min(k, kcBlockI) + 3) / 4
	panels := (n + nrI - 1) / nrI
	return parallel.Range(cfg.Ctx, workers, panels, work, func(lo, hi int) error {
		j0, j1 := lo*nrI, min(hi*nrI, n)
		buf := getBytes(k40*4*ncBlock + 8*ncBlock)
		defer poolI.Put(buf)
		bbuf := (*buf)[:k40*4*ncBlock]
		colB := make([]int32, ncBlock)
		zb := make([]int32, ncBlock)
		for jc := j0; jc < j1; jc += ncBlock {
			nc := min(ncBlock, j1-jc)
			clear(colB)
			for pc := 0; pc < k; pc += kcBlockI {
				if err := cfg.err(); err != nil {
					return err
				}
				kc := min(kcBlockI, k-pc)
				k4 := (kc + 3) / 4
				if fill != nil {
					fill(bbuf, pc, kc, jc, nc)
					finishB(bbuf, k4, kc, nc, flipB, colB[:nc], needCols)
				} else {
					packBI(bbuf, b, ldb, flipB, pc, kc, jc, nc, colB[:nc])
				}
				ap := pa.block(pc)
				for jr := 0; jr < nc; jr += nrI {
					cols := min(nrI, nc-jr)
					bs := bbuf[(jr/nrI)*k4*nrI*4:]
					for ir := 0; ir < m; ir += mrI {
						kI.tile(min(mrI, m-ir), k4, ap[ir*k4*4:], bs, c[ir*ldc+jc+jr:], ldc, cols, pc > 0)
					}
				}
			}
			if !needRows && !needCols {
				continue
			}
			// The zero points: C += zb'_j*(k*za'_i - rowA'_i) - za'_i*colB'_j.
			for j := range nc {
				zb[j] = zeroAt(bZero, jc+j) + shiftB
			}
			k32 := int32(k)
			for i := range m {
				za := zeroAt(aZero, i) + shiftA
				zeroFix(c[i*ldc+jc:i*ldc+jc+nc], zb[:nc], colB[:nc], k32*za-pa.rowSums[i], za)
			}
		}
		return nil
	})
}

// finishB makes a filled block of nc columns and k4 quads (kc rows) what
// the kernel reads: the last quad's rows past kc set to 0, every byte xor
// flip (b' = b-128 for uint8), and, when sums is set, each column's sum of
// b' (as int8) added to colB.
func finishB(dst []byte, k4, kc, nc int, flip byte, colB []int32, sums bool) {
	for s := 0; s*nrI < nc; s++ {
		cols := min(nrI, nc-s*nrI)
		d := dst[s*k4*nrI*4 : (s+1)*k4*nrI*4]
		if kc%4 != 0 {
			last := d[(k4-1)*nrI*4:]
			for j := range nrI {
				for t := kc % 4; t < 4; t++ {
					last[j*4+t] = flip
				}
			}
		}
		col := colB[s*nrI : s*nrI+cols]
		if cols == nrI && finishVector(d, k4, flip, col) {
			continue
		}
		if flip == 0 && !sums {
			continue
		}
		flip4 := uint32(flip) * 0x01010101
		for q := range k4 {
			o := d[q*nrI*4 : q*nrI*4+cols*4]
			for j := range col {
				w := binary.LittleEndian.Uint32(o[j*4:]) ^ flip4
				binary.LittleEndian.PutUint32(o[j*4:], w)
				col[j] += int32(int8(w)) + int32(int8(w>>8)) + int32(int8(w>>16)) + int32(int8(w>>24))
			}
		}
	}
}
