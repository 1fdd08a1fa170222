package gemm

import (
	"sync"
	"unsafe"

	"github.com/onnxshape/onnxshape/ops/internal/parallel"
)

// The blocked product, in the structure of Goto and van de Geijn's
// "Anatomy of High-Performance Matrix Multiplication" and of onnxruntime's
// MLAS: B is copied kcFor(k) rows by NR columns at a time into panels
// (contiguous, zero-padded to NR columns); A is copied into panels of MR
// rows (element (r, p) at p*MR + r) where the kernels have a fast copy (a
// gather on AVX-512) or A is transposed, and read in place otherwise; each
// MR×NR tile of C is summed in registers over a block of k and written
// once per block.
//
// The loops, outermost first:
//
//	jc: columns of C, ncBlock at a time (a block of packed B fits L2)
//	pc: k, kcFor(k) at a time (pack B[pc:pc+kc, jc:jc+nc] into panels)
//	ic: rows of C, mcBlock at a time (A[ic:ic+mc, pc:pc+kc], packed, in L2)
//	jr: columns, NR at a time (one panel of B, kc×NR, stays in L1)
//	ir: rows, MR at a time: the micro-kernel on one MR×NR tile
//
// Rows of A read in place alias in L1 when their stride is a multiple of
// a few KB (1024 floats: every row in the same set); the packed panel is
// one stream. Copying it in Go, a strided transpose, cost more than it
// saved, hence the gather.
//
// Small products (at most directRows rows, B not transposed) skip the
// copies and read A and B in place: B's rows are already NR contiguous
// columns per step of k, and a copy would cost as much as the product.
//
// The work is split across cores by columns (a part of the panels per
// core, each packing its own) when there are at least two panels per
// core, else by rows (each core packs all of B).

// kernels is one instruction set's micro-kernel and its tile: tile
// computes C[:rows, :cols] = alpha*A[:rows, :k]*B[:k, :cols] (+ beta*C
// when beta is not 0), rows <= mr, cols <= nr, A rows lda apart and B
// rows ldb apart. maskedB says tile reads no column of B past cols;
// otherwise it reads all nr.
type kernels[T float32 | float64] struct {
	name    string
	mr, nr  int
	maskedB bool
	tile    func(rows, k int, a []T, lda int, b []T, ldb int, c []T, ldc, cols int, alpha, beta T)
	// tileP is tile with A packed in a panel: element (r, p) at a[p*mr+r].
	tileP func(rows, k int, a []T, b []T, ldb int, c []T, ldc, cols int, alpha, beta T)
	// packRows, when not nil, packs rows <= mr rows of A (lda apart, k
	// long) into a panel for tileP, fast enough to pay for itself; lda
	// must be below maxGatherLd.
	packRows func(dst, a []T, lda, rows, k int)
	// panelB, when not nil, copies k rows of cols <= nr columns of B
	// (ldb apart) into a zero-padded panel of nr columns.
	panelB func(dst, b []T, ldb, k, cols int)
	// tileF and tilePF, when not nil, are tile and tileP that also apply
	// a finish before they store the tile: bias[r] added to row r (bias
	// nil: none), then every element limited to [clamp[0], clamp[1]]
	// (clamp nil: none), as finish.apply does it.
	tileF  func(rows, k int, a []T, lda int, b []T, ldb int, c []T, ldc, cols int, alpha, beta T, bias, colBias []T, clamp *[2]T)
	tilePF func(rows, k int, a []T, b []T, ldb int, c []T, ldc, cols int, alpha, beta T, bias, colBias []T, clamp *[2]T)
	// tilePA and tilePAF, when not nil, are tileP and tilePF that also
	// prefetch A's stream pf elements ahead of what they read (the next
	// tile's panel of weights packed whole, PackA32).
	tilePA  func(rows, k int, a []T, pf int, b []T, ldb int, c []T, ldc, cols int, alpha, beta T)
	tilePAF func(rows, k int, a []T, pf int, b []T, ldb int, c []T, ldc, cols int, alpha, beta T, bias, colBias []T, clamp *[2]T)
	// panelBT, when not nil, is panelB for B stored transposed: the
	// panel's cols columns are rows of b, ldb apart (below maxGatherLd).
	panelBT func(dst, b []T, ldb, k, cols int)
}

// maxGatherLd bounds the row stride of packRows and panelBT: 31 rows of
// it in bytes fit in int32.
const maxGatherLd = 1 << 24

// k32 and k64 are the kernels in use (chosen at init by useAsm).
var (
	k32 kernels[float32]
	k64 kernels[float64]
)

const (
	kcBlock = 256       // steps of k per packed block of B
	ncBytes = 512 << 10 // bytes of a packed block of B (kcBlock × ncBlock)
	mcBlock = 120       // rows of A copied at a time when transA
	// directRows is the most rows of C for which B is read in place.
	directRows = 48
)

// useGo selects the portable Go kernels.
func useGo() {
	kI = kernelsI{name: "go", tile: tileIGo}
	k32 = kernels[float32]{name: "go", mr: 4, nr: 16, maskedB: true,
		tile: func(rows, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc, cols int, alpha, beta float32) {
			tileGo(rows, k, a, lda, 1, b, ldb, c, ldc, cols, alpha, beta)
		},
		tileP: func(rows, k int, a []float32, b []float32, ldb int, c []float32, ldc, cols int, alpha, beta float32) {
			tileGo(rows, k, a, 1, 4, b, ldb, c, ldc, cols, alpha, beta)
		}}
	k64 = kernels[float64]{name: "go", mr: 4, nr: 16, maskedB: true,
		tile: func(rows, k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc, cols int, alpha, beta float64) {
			tileGo(rows, k, a, lda, 1, b, ldb, c, ldc, cols, alpha, beta)
		},
		tileP: func(rows, k int, a []float64, b []float64, ldb int, c []float64, ldc, cols int, alpha, beta float64) {
			tileGo(rows, k, a, 1, 4, b, ldb, c, ldc, cols, alpha, beta)
		}}
}

// tileGo is the portable micro-kernel: A's element (r, p) is a[r*rs+p*ps].
// Full 4×4 blocks of the tile keep their sums in 16 local variables (which
// the compiler holds in registers), the edges in an array.
func tileGo[T float32 | float64](rows, k int, a []T, rs, ps int, b []T, ldb int, c []T, ldc, cols int, alpha, beta T) {
	for j0 := 0; j0 < cols; j0 += 4 {
		w := min(4, cols-j0)
		if rows == 4 && w == 4 {
			tileGo4x4(k, a, rs, ps, b[j0:], ldb, c[j0:], ldc, alpha, beta)
			continue
		}
		var acc [4][4]T
		for p := range k {
			brow := b[p*ldb+j0 : p*ldb+j0+w]
			for r := range rows {
				av := a[r*rs+p*ps]
				s := acc[r][:w]
				for j, bv := range brow {
					s[j] += av * bv
				}
			}
		}
		for r := range rows {
			crow := c[r*ldc+j0 : r*ldc+j0+w]
			for j := range crow {
				s := alpha * acc[r][j]
				if beta != 0 {
					s += beta * crow[j]
				}
				crow[j] = s
			}
		}
	}
}

func tileGo4x4[T float32 | float64](k int, a []T, rs, ps int, b []T, ldb int, c []T, ldc int, alpha, beta T) {
	// Two rows at a time: 8 sums and 6 operands fit the 16 registers of
	// amd64 without spilling.
	for r0 := 0; r0 < 4; r0 += 2 {
		ar := a[r0*rs:]
		var c00, c01, c02, c03, c10, c11, c12, c13 T
		for p := range k {
			bp := b[p*ldb : p*ldb+4 : p*ldb+4]
			b0, b1, b2, b3 := bp[0], bp[1], bp[2], bp[3]
			a0, a1 := ar[p*ps], ar[rs+p*ps]
			c00 += a0 * b0
			c01 += a0 * b1
			c02 += a0 * b2
			c03 += a0 * b3
			c10 += a1 * b0
			c11 += a1 * b1
			c12 += a1 * b2
			c13 += a1 * b3
		}
		sums := [2][4]T{{c00, c01, c02, c03}, {c10, c11, c12, c13}}
		for r := range 2 {
			crow := c[(r0+r)*ldc : (r0+r)*ldc+4 : (r0+r)*ldc+4]
			for j := range crow {
				s := alpha * sums[r][j]
				if beta != 0 {
					s += beta * crow[j]
				}
				crow[j] = s
			}
		}
	}
}

// packed is B copied into the panels of a kernel: for each block of
// kcFor(k) steps of k, every panel of nr columns (the last zero-padded),
// each kc rows of nr.
type packed[T float32 | float64] struct {
	kn   kernels[T]
	k, n int
	data []T
}

// panel returns the panel of columns [j, j+nr) for the block of k that
// starts at pc, kc steps long.
func (pb *packed[T]) panel(pc, kc, j int) []T {
	panels := (pb.n + pb.kn.nr - 1) / pb.kn.nr
	return pb.data[pc*panels*pb.kn.nr+(j/pb.kn.nr)*kc*pb.kn.nr:]
}

// packB copies B[pc:pc+kc, jc:jc+nc] (B stored transposed when transB)
// into dst as panels of nr columns, each kc rows of nr, zero-padded.
// kn's panelB and panelBT, when not nil, copy one panel.
func packB[T float32 | float64](dst []T, kn *kernels[T], transB bool, b []T, ldb, pc, kc, jc, nc int) {
	nr, panel := kn.nr, kn.panelB
	if transB {
		panel = kn.panelBT
		if ldb >= maxGatherLd {
			panel = nil
		}
	}
	for q := 0; q*nr < nc; q++ {
		cols := min(nr, nc-q*nr)
		d := dst[q*kc*nr : (q+1)*kc*nr]
		j0 := jc + q*nr
		switch {
		case panel != nil && transB:
			panel(d, b[j0*ldb+pc:], ldb, kc, cols)
			continue
		case panel != nil:
			panel(d, b[pc*ldb+j0:], ldb, kc, cols)
			continue
		}
		if !transB {
			for p := range kc {
				row := d[p*nr : p*nr+nr]
				copy(row, b[(pc+p)*ldb+j0:(pc+p)*ldb+j0+cols])
				clear(row[cols:])
			}
			continue
		}
		// Four rows of B (columns of op(B)) at a time: four reads and one
		// short contiguous write per step of k.
		j := 0
		for ; j+4 <= cols; j += 4 {
			s0 := b[(j0+j)*ldb+pc : (j0+j)*ldb+pc+kc]
			s1 := b[(j0+j+1)*ldb+pc : (j0+j+1)*ldb+pc+kc]
			s2 := b[(j0+j+2)*ldb+pc : (j0+j+2)*ldb+pc+kc]
			s3 := b[(j0+j+3)*ldb+pc : (j0+j+3)*ldb+pc+kc]
			for p := range s0 {
				o := d[p*nr+j : p*nr+j+4 : p*nr+j+4]
				o[0], o[1], o[2], o[3] = s0[p], s1[p], s2[p], s3[p]
			}
		}
		for ; j < cols; j++ {
			src := b[(j0+j)*ldb+pc : (j0+j)*ldb+pc+kc]
			for p, v := range src {
				d[p*nr+j] = v
			}
		}
		if cols < nr {
			for p := range kc {
				clear(d[p*nr+cols : p*nr+nr])
			}
		}
	}
}

// packA copies rows [i0, i0+mc) and columns [pc, pc+kc) of op(A) (A
// stored k×m when transA) into dst as panels of mr rows: panel q holds
// element (r, p) at q*kc*mr + p*mr + r, the rows past mc zero.
func packA[T float32 | float64](dst []T, mr int, transA bool, a []T, lda, i0, mc, pc, kc int) {
	for q := 0; q*mr < mc; q++ {
		rows := min(mr, mc-q*mr)
		d := dst[q*kc*mr : (q+1)*kc*mr]
		r0 := i0 + q*mr
		if transA {
			for p := range kc {
				col := d[p*mr : p*mr+mr]
				copy(col, a[(pc+p)*lda+r0:(pc+p)*lda+r0+rows])
				clear(col[rows:])
			}
			continue
		}
		for r := range rows {
			src := a[(r0+r)*lda+pc : (r0+r)*lda+pc+kc]
			for p, v := range src {
				d[p*mr+r] = v
			}
		}
		if rows < mr {
			for p := range kc {
				clear(d[p*mr+rows : p*mr+mr])
			}
		}
	}
}

// kcFor is the steps of k per block for a product over k: k cut into
// equal blocks of at most kcBlock (576 is 3×192, not 256+256+64, whose
// short last block would pay the loads and stores of C for little work).
func kcFor(k int) int {
	if k <= kcBlock {
		return max(k, 1)
	}
	nb := (k + kcBlock - 1) / kcBlock
	return (k + nb - 1) / nb
}

// pools keep the packing buffers between calls, by element type.
var pools [2]sync.Pool

func getBuf[T float32 | float64](n int) *[]T {
	var z T
	pl := &pools[unsafe.Sizeof(z)/8]
	if v, ok := pl.Get().(*[]T); ok && cap(*v) >= n {
		*v = (*v)[:n]
		return v
	}
	s := make([]T, n)
	return &s
}

func putBuf[T float32 | float64](v *[]T) {
	var z T
	pools[unsafe.Sizeof(z)/8].Put(v)
}

// scaleC sets C = alpha*0 + beta*C, the product over an empty k (as the
// plain kernel computes it: alpha*0 is NaN when alpha is infinite).
func scaleC[T float32 | float64](m, n int, alpha, beta T, c []T, ldc int) {
	for i := range m {
		row := c[i*ldc : i*ldc+n]
		for j := range row {
			s := alpha * 0
			if beta != 0 {
				s += beta * row[j]
			}
			row[j] = s
		}
	}
}

// blocked computes C = alpha*op(A)*op(B) + beta*C with the kernels kn,
// B from b (ldb, transB) or, when pb is not nil, from its panels.
func blocked[T float32 | float64](cfg Config, kn kernels[T], transA, transB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, pb *packed[T], beta T, c []T, ldc int, fin *finish[T]) error {
	return blockedA(cfg, kn, transA, transB, m, n, k, alpha, a, lda, b, ldb, pb, beta, c, ldc, fin, nil, 0)
}

// blockedA is blocked with A's rows [r0, r0+m) read from pa (the whole A
// packed, PackA32) where the kernels can (A not transposed, float32, pa's
// panels those of kn), as Float32ImplicitPacked reads them.
func blockedA[T float32 | float64](cfg Config, kn kernels[T], transA, transB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, pb *packed[T], beta T, c []T, ldc int, fin *finish[T], pa *PackedA32, r0 int) error {
	if m == 0 || n == 0 {
		return cfg.err()
	}
	if k == 0 {
		if err := cfg.err(); err != nil {
			return err
		}
		scaleC(m, n, alpha, beta, c, ldc)
		if fin != nil {
			fin.apply(c, ldc, 0, 0, m, n)
		}
		return nil
	}
	if pb != nil {
		kn = pb.kn
	}
	mr, nr := kn.mr, kn.nr
	var z T
	size := int(unsafe.Sizeof(z))
	ncBlock := max(nr, ncBytes/(kcBlock*size)/nr*nr)
	kcb := kcFor(k)
	kc0 := min(k, kcb)
	direct := pb == nil && !transB && m <= directRows

	threads := max(cfg.Threads, 1)
	panels := (n + nr - 1) / nr
	rowTiles := (m + mr - 1) / mr
	byCols := panels >= 2*threads || panels >= rowTiles
	units := rowTiles
	if byCols {
		units = panels
	}
	// A core does some 32 multiply-adds in the time it copies one element:
	// parallel.Work counts elements.
	work := int(min(float64(m)*float64(n)*float64(k)/32, 1<<40))
	workers := threads
	if work < parallel.Work {
		workers = 1
	}
	workers = min(workers, units)

	// Each worker's scratch: a block of packed B, or when B is read in
	// place and the kernel reads whole panels one padded panel for the
	// last columns; transA, a block of A's rows.
	colsPer := n
	if byCols {
		colsPer = min(n, (panels+workers-1)/workers*nr)
	}
	bElems := 0
	switch {
	case pb != nil:
	case direct && !kn.maskedB && n%nr != 0:
		bElems = kc0 * nr
	case !direct:
		bElems = kc0 * min((colsPer+nr-1)/nr*nr, ncBlock)
	}
	packedA := transA
	aElems := 0
	if packedA {
		aElems = (min(m, mcBlock) + mr - 1) / mr * mr * kc0
	}
	// One row on one core, B in place or packed: the row kernels.
	if m == 1 && workers == 1 && !transA && alpha == 1 && (pb != nil || direct) {
		switch {
		case fin == nil:
			if vecRow(&kn, k, n, a, b, ldb, pb, beta, c, kcb) {
				return cfg.err()
			}
		case fin.first && fin.clamp == nil:
			// A bias that is C's starting value: C filled with it, then
			// beta 1, as the product it stands for (the same bits).
			row := c[:n]
			if fin.colBias != nil {
				copy(row, fin.colBias[:n])
			} else {
				for j := range row {
					row[j] = fin.bias[0]
				}
			}
			if vecRow(&kn, k, n, a, b, ldb, pb, 1, c, kcb) {
				return cfg.err()
			}
		}
	}
	scratch := int64(bElems+aElems) * int64(size) * int64(workers)
	if err := cfg.Scratch.take(cfg, scratch); err != nil {
		return err
	}
	defer cfg.Scratch.give(scratch)

	st := blockedState[T]{cfg: cfg, kn: kn, transA: transA, transB: transB, byCols: byCols, direct: direct, packedA: packedA, m: m, n: n, k: k, kcb: kcb, mr: mr, nr: nr, ncBlock: ncBlock, bElems: bElems, aElems: aElems, alpha: alpha, beta: beta, a: a, b: b, c: c, lda: lda, ldb: ldb, ldc: ldc, pb: pb}
	if k32, ok := any(&kn).(*kernels[float32]); ok && !transA && kn.tilePA != nil && pa.usable(k32, r0, m, k) {
		st.pa, st.paMpad, st.r0 = any(pa.data).([]T), pa.mpad, r0
	}
	if fin != nil {
		// A copy: fin itself stays on its caller's stack.
		st.fin, st.hasFin = *fin, true
	}
	if workers == 1 {
		// One part: called here, st stays on the stack (a closure handed
		// to the pool would be allocated at every call, a small product's
		// largest cost).
		return st.part(0, units)
	}
	shared := st
	return parallel.Range(cfg.Ctx, workers, units, work, shared.part)
}

// blockedState is what a part of blocked reads.
type blockedState[T float32 | float64] struct {
	cfg                                           Config
	kn                                            kernels[T]
	transA, transB, byCols, direct, packedA       bool
	pa                                            []T // A packed whole (PackA32), when not nil: rows r0 on
	paMpad, r0                                    int
	m, n, k, kcb, mr, nr, ncBlock, bElems, aElems int
	alpha, beta                                   T
	a, b, c                                       []T
	lda, ldb, ldc                                 int
	pb                                            *packed[T]
	fin                                           finish[T] // with the last block of k (the first when fin.first), when hasFin
	hasFin                                        bool
}

// part computes blocked's units [lo, hi): panels of columns, or tiles of
// rows.
func (s *blockedState[T]) part(lo, hi int) error {
	cfg, kn, transA, transB, byCols, direct, packedA, m, n, k, kcb, mr, nr, ncBlock, bElems, aElems, alpha, beta, a, b, c, lda, ldb, ldc, pb, fin := s.cfg, s.kn, s.transA, s.transB, s.byCols, s.direct, s.packedA, s.m, s.n, s.k, s.kcb, s.mr, s.nr, s.ncBlock, s.bElems, s.aElems, s.alpha, s.beta, s.a, s.b, s.c, s.lda, s.ldb, s.ldc, s.pb, (*finish[T])(nil)
	if s.hasFin {
		fin = &s.fin
	}
	i0, i1, j0, j1 := 0, m, 0, n
	if byCols {
		j0, j1 = lo*nr, min(hi*nr, n)
	} else {
		i0, i1 = lo*mr, min(hi*mr, m)
	}
	// inKernel: the kernel in use applies the finish itself.
	inKernel := packedA && kn.tilePF != nil || !packedA && kn.tileF != nil
	var bbuf, abuf []T
	if bElems > 0 {
		p := getBuf[T](bElems)
		defer putBuf(p)
		bbuf = *p
	}
	if aElems > 0 {
		p := getBuf[T](aElems)
		defer putBuf(p)
		abuf = *p
	}
	for jc := j0; jc < j1; jc += ncBlock {
		nc := min(ncBlock, j1-jc)
		for pc := 0; pc < k; pc += kcb {
			if err := cfg.err(); err != nil {
				return err
			}
			kc := min(kcb, k-pc)
			if !direct && pb == nil {
				packB(bbuf, &kn, transB, b, ldb, pc, kc, jc, nc)
			}
			bet := beta
			if pc > 0 {
				bet = 1
			}
			last := fin.at(pc, kc, k) // the finish goes with this block
			for ic := i0; ic < i1; ic += mcBlock {
				if ic > i0 {
					if err := cfg.err(); err != nil {
						return err
					}
				}
				mc := min(mcBlock, i1-ic)
				var as []T
				switch {
				case transA:
					packA(abuf, mr, transA, a, lda, ic, mc, pc, kc)
				case s.pa != nil:
				case packedA:
					for q := 0; q*mr < mc; q++ {
						kn.packRows(abuf[q*kc*mr:], a[(ic+q*mr)*lda+pc:], lda, min(mr, mc-q*mr), kc)
					}
				default:
					as = a[ic*lda+pc:]
				}
				for jr := 0; jr < nc; jr += nr {
					cols := min(nr, nc-jr)
					for ir := 0; ir < mc; ir += mr {
						rows := min(mr, mc-ir)
						var bs []T
						bld := nr
						switch {
						case pb != nil:
							bs = pb.panel(pc, kc, jc+jr)
						case !direct:
							bs = bbuf[(jr/nr)*kc*nr:]
						case cols < nr && !kn.maskedB:
							// The last panel, padded for a kernel that reads nr columns.
							packB(bbuf, &kn, false, b, ldb, pc, kc, jc+jr, cols)
							bs = bbuf
						default:
							bs, bld = b[pc*ldb+jc+jr:], ldb
						}
						cs := c[(ic+ir)*ldc+jc+jr:]
						if s.pa != nil {
							// The packed weights' stream, prefetched ahead.
							ap, pf := s.pa[pc*s.paMpad+(s.r0+ic+ir)*kc:], prefetchA*mr*kc
							switch {
							case last && kn.tilePAF != nil:
								kn.tilePAF(rows, kc, ap, pf, bs, bld, cs, ldc, cols, alpha, bet, fin.rows(ic+ir), fin.cols(jc+jr), fin.clamp)
							default:
								kn.tilePA(rows, kc, ap, pf, bs, bld, cs, ldc, cols, alpha, bet)
								if last {
									fin.apply(cs, ldc, ic+ir, jc+jr, rows, cols)
								}
							}
							continue
						}
						switch {
						case last && inKernel && packedA:
							kn.tilePF(rows, kc, abuf[ir*kc:], bs, bld, cs, ldc, cols, alpha, bet, fin.rows(ic+ir), fin.cols(jc+jr), fin.clamp)
						case last && inKernel:
							kn.tileF(rows, kc, as[ir*lda:], lda, bs, bld, cs, ldc, cols, alpha, bet, fin.rows(ic+ir), fin.cols(jc+jr), fin.clamp)
						case packedA:
							kn.tileP(rows, kc, abuf[ir*kc:], bs, bld, cs, ldc, cols, alpha, bet)
						default:
							kn.tile(rows, kc, as[ir*lda:], lda, bs, bld, cs, ldc, cols, alpha, bet)
						}
						if last && !inKernel {
							fin.apply(cs, ldc, ic+ir, jc+jr, rows, cols)
						}
					}
				}
			}
		}
	}
	return nil
}

// rows returns the biases from row i0 of C on (nil without a bias).
func (f *finish[T]) rows(i0 int) []T {
	if f.bias == nil {
		return nil
	}
	return f.bias[i0:]
}

// cols returns the column biases from column j0 of C on (nil without).
func (f *finish[T]) cols(j0 int) []T {
	if f.colBias == nil {
		return nil
	}
	return f.colBias[j0:]
}

// pack copies op(B) (k×n) into the panels of kn, charging cfg first.
func pack[T float32 | float64](cfg Config, kn kernels[T], transB bool, k, n int, b []T, ldb int) (*packed[T], error) {
	nr := kn.nr
	panels := (n + nr - 1) / nr
	elems := k * panels * nr
	var z T
	if cfg.Charge != nil {
		if err := cfg.Charge(int64(elems) * int64(unsafe.Sizeof(z))); err != nil {
			return nil, err
		}
	}
	pb := &packed[T]{kn: kn, k: k, n: n, data: make([]T, elems)}
	kcb := kcFor(k)
	for pc := 0; pc < k; pc += kcb {
		if err := cfg.err(); err != nil {
			return nil, err
		}
		kc := min(kcb, k-pc)
		packB(pb.data[pc*panels*nr:], &kn, transB, b, ldb, pc, kc, 0, n)
	}
	return pb, nil
}
