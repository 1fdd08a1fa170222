package gemm

import (
	"fmt"

	"github.com/onnxshape/onnxshape/ops/internal/parallel"
)

// Implicit products: C = A*B where B is never stored as a matrix. A
// convolution's B is the image's windows (one row per input channel and
// kernel tap, one column per output position); gathering it whole (im2col)
// and then copying it again into the micro-kernel's panels costs two
// passes over K×P elements. Here the caller's filler writes B's elements
// straight into the panels the micro-kernel reads, a block of kc rows and
// nc columns at a time (cache-sized, as the blocked product packs B), so
// the windows are read once and never held whole.

// Filler32 writes a block of B into panels: rows [pc, pc+kc) and columns
// [j0, j0+nc) of B, in panels of nr columns (nr is NR32()): panel q (of
// ceil(nc/nr)) starts at dst[q*kc*nr] and holds element (pc+p, j0+q*nr+j)
// at p*nr+j; the columns of the last panel past nc must be set to zero.
type Filler32 func(dst []float32, nr, pc, kc, j0, nc int)

// NR32 is the panel width of the float32 micro-kernel in use: a Filler32
// writes panels this many columns wide.
func NR32() int { return k32.nr }

// ImplicitScratch32 returns the bytes of panel scratch Float32Implicit
// charges for a product of n columns over k on threads cores.
func ImplicitScratch32(n, k, threads int) int64 {
	_, _, elems := implicitPlan(k32, n, k, max(threads, 1))
	return int64(elems) * 4
}

// implicitPlan returns the workers, the columns of one block and the
// scratch elements (all workers) of an implicit product.
func implicitPlan(kn kernels[float32], n, k, threads int) (workers, ncBlock, elems int) {
	nr := kn.nr
	panels := (n + nr - 1) / nr
	workers = max(1, min(threads, panels))
	ncBlock = max(nr, ncBytes/(kcBlock*4)/nr*nr)
	per := (panels + workers - 1) / workers * nr
	return workers, ncBlock, workers * min(k, kcFor(k)) * min(per, ncBlock)
}

// Float32Implicit computes C = A*B for A m×k (row-major, row stride lda,
// read in place) and B k×n written by fill a block at a time (C m×n, row
// stride ldc, not read: beta is 0). The panel scratch (one block per
// worker, ImplicitScratch32) is taken through cfg.Scratch (or charged to
// cfg.Charge) before any work; the context is checked between blocks; the
// columns are split over cfg.Threads cores, each filling its own panels.
// fill must be safe to call from several goroutines at once on distinct
// blocks. The sums are those of Float32 (same kernels, same blocking of
// k), within the bound of the package doc; each element of C is then
// finished as fin says.
func Float32Implicit(cfg Config, m, n, k int, a []float32, lda int, fill Filler32, c []float32, ldc int, fin Finish) error {
	return float32Implicit(cfg, m, n, k, a, lda, nil, 0, fill, c, ldc, fin)
}

// Float32ImplicitPacked is Float32Implicit with A's rows [r0, r0+m) read
// from pa (PackA32 of the whole A) when the kernels in use can, as one
// sequential stream; from a (those rows, in place) otherwise. The sums
// are Float32Implicit's, bit for bit: the same kernel instructions on the
// same values in the same order. a may be nil when pa.Serves(r0, m, k,
// false): the weights are then only packed.
func Float32ImplicitPacked(cfg Config, m, n, k int, a []float32, lda int, pa *PackedA32, r0 int, fill Filler32, c []float32, ldc int, fin Finish) error {
	return float32Implicit(cfg, m, n, k, a, lda, pa, r0, fill, c, ldc, fin)
}

// prefetchA is how many tiles' panels ahead a product on packed weights
// prefetches them (tilePA).
var prefetchA = 2

func float32Implicit(cfg Config, m, n, k int, a []float32, lda int, pa *PackedA32, r0 int, fill Filler32, c []float32, ldc int, fin Finish) error {
	if fill == nil {
		return fmt.Errorf("%w: no filler for B", ErrShape)
	}
	fv, ok, err := fin.internal(m, n)
	if err != nil {
		return err
	}
	f := &fv
	if !ok {
		f = nil
	}
	if a == nil {
		// The weights only packed (Float32ImplicitPacked).
		if !pa.Serves(r0, m, k, false) {
			return fmt.Errorf("%w: no A and its packed rows do not serve the product", ErrShape)
		}
	} else if err := check("A", m, k, lda, len(a)); err != nil {
		return err
	}
	if err := check("C", m, n, ldc, len(c)); err != nil {
		return err
	}
	if m == 0 || n == 0 {
		return cfg.err()
	}
	if k == 0 {
		if err := cfg.err(); err != nil {
			return err
		}
		scaleC(m, n, 1, 0, c, ldc)
		if f != nil {
			f.apply(c, ldc, 0, 0, m, n)
		}
		return nil
	}
	kn := k32
	mr, nr := kn.mr, kn.nr
	if !pa.usable(&kn, r0, m, k) {
		pa = nil
	}
	threads := max(cfg.Threads, 1)
	work := int(min(float64(m)*float64(n)*float64(k)/32, 1<<40))
	if work < parallel.Work {
		threads = 1
	}
	workers, ncBlock, elems := implicitPlan(kn, n, k, threads)
	kcb := kcFor(k)
	scratch := int64(elems) * 4
	if err := cfg.Scratch.take(cfg, scratch); err != nil {
		return err
	}
	defer cfg.Scratch.give(scratch)
	panels := (n + nr - 1) / nr
	per := elems / workers
	return parallel.Range(cfg.Ctx, workers, panels, work, func(lo, hi int) error {
		j0, j1 := lo*nr, min(hi*nr, n)
		p := getBuf[float32](per)
		defer putBuf(p)
		bbuf := *p
		for jc := j0; jc < j1; jc += ncBlock {
			nc := min(ncBlock, j1-jc)
			for pc := 0; pc < k; pc += kcb {
				if err := cfg.err(); err != nil {
					return err
				}
				kc := min(kcb, k-pc)
				fill(bbuf[:(nc+nr-1)/nr*nr*kc], nr, pc, kc, jc, nc)
				var bet float32
				if pc > 0 {
					bet = 1
				}
				last := f != nil && pc+kc == k
				for ic := 0; ic < m; ic += mcBlock {
					mc := min(mcBlock, m-ic)
					for jr := 0; jr < nc; jr += nr {
						cols := min(nr, nc-jr)
						bs := bbuf[(jr/nr)*kc*nr:]
						for ir := 0; ir < mc; ir += mr {
							rows := min(mr, mc-ir)
							cs := c[(ic+ir)*ldc+jc+jr:]
							if pa != nil {
								ap := pa.data[pc*pa.mpad+(r0+ic+ir)*kc:]
								switch {
								case kn.tilePA != nil && !last:
									kn.tilePA(rows, kc, ap, prefetchA*mr*kc, bs, nr, cs, ldc, cols, 1, bet)
								case kn.tilePAF != nil:
									kn.tilePAF(rows, kc, ap, prefetchA*mr*kc, bs, nr, cs, ldc, cols, 1, bet, f.rows(ic+ir), f.cols(jc+jr), f.clamp)
								case !last:
									kn.tileP(rows, kc, ap, bs, nr, cs, ldc, cols, 1, bet)
								case kn.tilePF != nil:
									kn.tilePF(rows, kc, ap, bs, nr, cs, ldc, cols, 1, bet, f.rows(ic+ir), f.cols(jc+jr), f.clamp)
								default:
									kn.tileP(rows, kc, ap, bs, nr, cs, ldc, cols, 1, bet)
									f.apply(cs, ldc, ic+ir, jc+jr, rows, cols)
								}
								continue
							}
							switch {
							case !last:
								kn.tile(rows, kc, a[(ic+ir)*lda+pc:], lda, bs, nr, cs, ldc, cols, 1, bet)
							case kn.tileF != nil:
								kn.tileF(rows, kc, a[(ic+ir)*lda+pc:], lda, bs, nr, cs, ldc, cols, 1, bet, f.rows(ic+ir), f.cols(jc+jr), f.clamp)
							default:
								kn.tile(rows, kc, a[(ic+ir)*lda+pc:], lda, bs, nr, cs, ldc, cols, 1, bet)
								f.apply(cs, ldc, ic+ir, jc+jr, rows, cols)
							}
						}
					}
				}
			}
		}
		return nil
	})
}
