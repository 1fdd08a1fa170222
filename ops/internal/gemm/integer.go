package gemm

import (
	"encoding/binary"
	"sync"

	"github.com/onnxshape/onnxshape/ops/internal/parallel"
)

// The 8-bit product, exact in int32 (wrapping as int32 does). Every
// combination of signed and unsigned operands is turned into one, A
// unsigned and B signed (the operands of VPDPBUSD), while packing: a
// signed a becomes a' = a+128 (its bits with the top one flipped) and an
// unsigned b becomes b' = b-128, the zero points moving with them
// (za' = za+128, zb' = zb-128), so a-za = a'-za' and b-zb = b'-zb'. Then
//
//	C[i][j] = Σp (a'-za'_i)(b'-zb'_j)
//	        = D[i][j] - za'_i*colB'_j - zb'_j*rowA'_i + k*za'_i*zb'_j
//
// with D = A'B' from the kernel and rowA', colB' the sums of A's rows and
// B's columns; every step is a ring identity in int32, so the result is
// exact whatever wraps.
//
// Both operands are packed (the bytes change anyway): B in panels of nrI
// columns by quads of k (the four bytes of one column in one int32 lane),
// A in panels of mrI rows by quads of k, zero-padded (a zero a' or b'
// adds nothing). An unsigned A (no flip) whose k is whole quads is not
// copied where the VNNI kernel can read it in place (directA). The loops
// are those of blocked.go.

const (
	mrI      = 12
	nrI      = 32
	kcBlockI = 1024 // steps of k per block (a multiple of 4)
	ncBlockI = 512  // columns per block: kcBlockI×ncBlockI bytes of B
)

// kernelsI is the 8-bit micro-kernel: tile computes D for a rows×cols
// tile over k4 quads of k from packed panels, C = D or C += D.
type kernelsI struct {
	name string
	tile func(rows, k4 int, a, b []byte, c []int32, ldc, cols int, add bool)
}

var kI = kernelsI{name: "go", tile: tileIGo}

// tileIGo is the portable 8-bit micro-kernel.
func tileIGo(rows, k4 int, a, b []byte, c []int32, ldc, cols int, add bool) {
	var acc [mrI][nrI]int32
	for q := range k4 {
		bq := b[q*nrI*4 : q*nrI*4+cols*4]
		for r := range rows {
			o := (q*mrI + r) * 4
			a0, a1, a2, a3 := int32(a[o]), int32(a[o+1]), int32(a[o+2]), int32(a[o+3])
			s := acc[r][:cols]
			for j := range s {
				bj := bq[j*4 : j*4+4 : j*4+4]
				s[j] += a0*int32(int8(bj[0])) + a1*int32(int8(bj[1])) + a2*int32(int8(bj[2])) + a3*int32(int8(bj[3]))
			}
		}
	}
	for r := range rows {
		row := c[r*ldc : r*ldc+cols]
		if add {
			for j := range row {
				row[j] += acc[r][j]
			}
		} else {
			copy(row, acc[r][:cols])
		}
	}
}

// packAI copies rows [i0, i0+mc) and columns [pc, pc+kc) of A, each byte
// xor flip, into panels of mrI rows: byte t of quad q of row r of panel
// s at s*k4*mrI*4 + (q*mrI + r)*4 + t, zero-padded. It returns in sums[r]
// the sum of row r's bytes after the flip, added to what was there
// (nothing when sums is nil).
func packAI(dst []byte, a []byte, lda int, flip byte, i0, mc, pc, kc int, sums []int32) {
	k4 := (kc + 3) / 4
	flip4 := uint32(flip) * 0x01010101
	for s := 0; s*mrI < mc; s++ {
		rows := min(mrI, mc-s*mrI)
		d := dst[s*k4*mrI*4 : (s+1)*k4*mrI*4]
		if rows < mrI || kc%4 != 0 {
			clear(d)
		}
		for r := range rows {
			src := a[(i0+s*mrI+r)*lda+pc : (i0+s*mrI+r)*lda+pc+kc]
			var sum int32
			q := 0
			if sums == nil {
				for ; 4*q+4 <= kc; q++ {
					binary.LittleEndian.PutUint32(d[q*mrI*4+r*4:], binary.LittleEndian.Uint32(src[4*q:])^flip4)
				}
			}
			for ; 4*q+4 <= kc; q++ {
				w := binary.LittleEndian.Uint32(src[4*q:]) ^ flip4
				binary.LittleEndian.PutUint32(d[q*mrI*4+r*4:], w)
				sum += int32(w&0xff) + int32(w>>8&0xff) + int32(w>>16&0xff) + int32(w>>24)
			}
			for p := 4 * q; p < kc; p++ {
				v := src[p] ^ flip
				d[q*mrI*4+r*4+p&3] = v
				sum += int32(v)
			}
			if sums != nil {
				sums[s*mrI+r] += sum
			}
		}
	}
}

// sumRowsU8 adds to sums[r] the sum of the bytes of row i0+r of A,
// columns [pc, pc+kc), for r < mc (nothing when sums is nil): packAI's
// sums with no flip and no copy, eight bytes a step.
func sumRowsU8(a []byte, lda, i0, mc, pc, kc int, sums []int32) {
	if sums == nil {
		return
	}
	const lo = 0x00ff00ff00ff00ff
	for r := range mc {
		src := a[(i0+r)*lda+pc : (i0+r)*lda+pc+kc]
		var sum int32
		for len(src) >= 8 {
			// Up to 128 words a round, so the four 16-bit lanes (each at
			// most 2*255 a word) never carry.
			n := min(len(src)/8, 128)
			var acc uint64
			for w := range n {
				v := binary.LittleEndian.Uint64(src[8*w:])
				acc += v&lo + v>>8&lo
			}
			sum += int32(acc&0xffff + acc>>16&0xffff + acc>>32&0xffff + acc>>48)
			src = src[8*n:]
		}
		for _, v := range src {
			sum += int32(v)
		}
		sums[r] += sum
	}
}

// packBI copies B[pc:pc+kc, jc:jc+nc], each byte xor flip, into panels
// of nrI columns: byte t of quad q of column j of panel s at
// s*k4*nrI*4 + q*nrI*4 + j*4 + t, zero-padded. It adds to sums[j] the sum
// of column j's bytes (as int8) after the flip.
func packBI(dst []byte, b []byte, ldb int, flip byte, pc, kc, jc, nc int, sums []int32) {
	k4 := (kc + 3) / 4
	for s := 0; s*nrI < nc; s++ {
		cols := min(nrI, nc-s*nrI)
		d := dst[s*k4*nrI*4 : (s+1)*k4*nrI*4]
		if cols < nrI || kc%4 != 0 {
			clear(d)
		}
		sum := sums[s*nrI : s*nrI+cols]
		row := func(p int) []byte {
			return b[(pc+p)*ldb+jc+s*nrI : (pc+p)*ldb+jc+s*nrI+cols]
		}
		// The vector loop does the first whole sixteens of columns over
		// the whole quads (integerpack_amd64.s); this loop the rest.
		v := packBVector(d, b[pc*ldb+jc+s*nrI:], ldb, kc/4, cols, flip, sum)
		q := 0
		for ; 4*q+4 <= kc; q++ {
			r0, r1, r2, r3 := row(4*q), row(4*q+1), row(4*q+2), row(4*q+3)
			r1, r2, r3 = r1[:len(r0)], r2[:len(r0)], r3[:len(r0)]
			o := d[q*nrI*4 : q*nrI*4+len(r0)*4]
			for j := v; j < len(r0); j++ {
				v0, v1, v2, v3 := r0[j]^flip, r1[j]^flip, r2[j]^flip, r3[j]^flip
				binary.LittleEndian.PutUint32(o[j*4:], uint32(v0)|uint32(v1)<<8|uint32(v2)<<16|uint32(v3)<<24)
				sum[j] += int32(int8(v0)) + int32(int8(v1)) + int32(int8(v2)) + int32(int8(v3))
			}
		}
		for p := 4 * q; p < kc; p++ {
			for j, v := range row(p) {
				v ^= flip
				d[q*nrI*4+j*4+p&3] = v
				sum[j] += int32(int8(v))
			}
		}
	}
}

var poolI, poolInts sync.Pool

// getInts returns a pooled []int32 of length n (contents undefined).
func getInts(n int) *[]int32 {
	if v, ok := poolInts.Get().(*[]int32); ok && cap(*v) >= n {
		*v = (*v)[:n]
		return v
	}
	s := make([]int32, n)
	return &s
}

func getBytes(n int) *[]byte {
	if v, ok := poolI.Get().(*[]byte); ok && cap(*v) >= n {
		*v = (*v)[:n]
		return v
	}
	s := make([]byte, n)
	return &s
}

// packedI is B packed for the 8-bit kernel once: for each block of
// kcBlockI steps of k, every panel of nrI columns (as packBI lays them
// out), and the sums of B's columns (as b').
type packedI struct {
	k, n    int
	signed  bool
	data    []byte
	colSums []int32
}

// panel returns the panel of columns [j, j+nrI) of the block of k at pc.
func (pb *packedI) panel(pc, k4, j int) []byte {
	panels := (pb.n + nrI - 1) / nrI
	return pb.data[pc*panels*nrI+(j/nrI)*k4*nrI*4:]
}

func packI(cfg Config, k, n int, b []byte, bSigned bool, ldb int) (*packedI, error) {
	panels := (n + nrI - 1) / nrI
	size := (k + 3) / 4 * 4 * panels * nrI
	if cfg.Charge != nil {
		if err := cfg.Charge(int64(size) + 4*int64(n)); err != nil {
			return nil, err
		}
	}
	var flip byte
	if !bSigned {
		flip = 0x80
	}
	pb := &packedI{k: k, n: n, signed: bSigned, data: make([]byte, size), colSums: make([]int32, n)}
	for pc := 0; pc < k; pc += kcBlockI {
		if err := cfg.err(); err != nil {
			return nil, err
		}
		packBI(pb.data[pc*panels*nrI:], b, ldb, flip, pc, min(kcBlockI, k-pc), 0, n, pb.colSums)
	}
	return pb, nil
}

// integerBlocked is Integer, B read from b or, when pb is not nil, from
// its panels (bSigned is then pb's).
func integerBlocked(cfg Config, m, n, k int, a []byte, aSigned bool, lda int, aZero []int32, b []byte, bSigned bool, ldb int, pb *packedI, bZero []int32, c []int32, ldc int) error {
	if err := cfg.err(); err != nil || m == 0 || n == 0 {
		return err
	}
	if pb != nil {
		bSigned = pb.signed
	}
	if k == 0 {
		for i := range m {
			clear(c[i*ldc : i*ldc+n])
		}
		return nil
	}
	var flipA, flipB byte
	var shiftA, shiftB int32
	if aSigned {
		flipA, shiftA = 0x80, 128
	}
	if !bSigned {
		flipB, shiftB = 0x80, -128
	}
	kc0 := min(k, kcBlockI)
	k40 := (kc0 + 3) / 4

	threads := max(cfg.Threads, 1)
	panels := (n + nrI - 1) / nrI
	rowTiles := (m + mrI - 1) / mrI
	byCols := panels >= 2*threads || panels >= rowTiles
	units := rowTiles
	if byCols {
		units = panels
	}
	work := int(min(float64(m)*float64(n)*float64(k)/128, 1<<40))
	workers := threads
	if work < parallel.Work {
		workers = 1
	}
	workers = min(workers, units)
	colsPer, rowsPer := n, m
	if byCols {
		colsPer = min(n, (panels+workers-1)/workers*nrI)
	} else {
		rowsPer = min(m, (rowTiles+workers-1)/workers*mrI)
	}
	ncMax := min((colsPer+nrI-1)/nrI*nrI, ncBlockI)
	mcMax := (min(rowsPer, mcBlock) + mrI - 1) / mrI * mrI
	bBytes := k40 * 4 * ncMax
	if pb != nil {
		bBytes = 0
	}
	// An unsigned A whose k is whole quads is read in place by the
	// kernel, when it can (directA): no panels of A, no copy.
	direct := flipA == 0 && k%4 == 0 && directA()
	// With one zero point for all of A and none left on B (zb' 0 for every
	// column, as with symmetric int8 weights), the correction is
	// -za'*colB'_j, the same for every row: the direct kernel starts its
	// sums from it on the first block of k, when B's column sums are known
	// by then (B packed at load, or a single block of k), and no pass over C
	// follows.
	fold := direct && len(aZero) <= 1 && len(bZero) <= 1 && zeroAt(bZero, 0)+shiftB == 0 && (pb != nil || k <= kcBlockI)
	aBytes := k40 * 4 * mcMax
	if direct {
		aBytes = 0
	}
	ncb := min(ncBlockI, colsPer)
	ints := rowsPer + 3*ncb + nrI // rowA, colBuf, zb, colTerm (padded)
	per := int64(bBytes+aBytes) + 4*int64(ints)
	scratch := per * int64(workers)
	if err := cfg.Scratch.take(cfg, scratch); err != nil {
		return err
	}
	defer cfg.Scratch.give(scratch)

	return parallel.Range(cfg.Ctx, workers, units, work, func(lo, hi int) error {
		i0, i1, j0, j1 := 0, m, 0, n
		if byCols {
			j0, j1 = lo*nrI, min(hi*nrI, n)
		} else {
			i0, i1 = lo*mrI, min(hi*mrI, m)
		}
		buf := getBytes(bBytes + aBytes)
		defer poolI.Put(buf)
		bbuf, abuf := (*buf)[:bBytes], (*buf)[bBytes:]

		// The sums of A's rows and B's columns (as a' and b'), added up
		// while packing: B's for its columns of each block of columns, A's
		// for the first block of columns.
		nb := min(ncBlockI, j1-j0)
		ibuf := getInts(i1 - i0 + 3*nb + nrI)
		defer poolInts.Put(ibuf)
		rowA := (*ibuf)[:i1-i0]
		clear(rowA)
		needRows := rowSumsNeeded(bZero, shiftB)
		var colBuf []int32
		if pb == nil {
			colBuf = (*ibuf)[i1-i0 : i1-i0+nb]
		}
		zb := (*ibuf)[i1-i0+nb : i1-i0+2*nb]
		var colTerm []int32 // -za'*colB'_j, padded to whole panels
		if fold {
			colTerm = (*ibuf)[i1-i0+2*nb:]
			clear(colTerm)
		}
		for jc := j0; jc < j1; jc += ncBlockI {
			nc := min(ncBlockI, j1-jc)
			colB := colBuf
			if pb != nil {
				colB = pb.colSums[jc : jc+nc]
			} else {
				clear(colB)
			}
			for pc := 0; pc < k; pc += kcBlockI {
				if err := cfg.err(); err != nil {
					return err
				}
				kc := min(kcBlockI, k-pc)
				k4 := (kc + 3) / 4
				if pb == nil {
					packBI(bbuf, b, ldb, flipB, pc, kc, jc, nc, colB)
				}
				if fold && pc == 0 {
					za := zeroAt(aZero, 0) + shiftA
					for j, s := range colB[:nc] {
						colTerm[j] = -za * s
					}
				}
				for ic := i0; ic < i1; ic += mcBlock {
					if ic > i0 {
						if err := cfg.err(); err != nil {
							return err
						}
					}
					mc := min(mcBlock, i1-ic)
					sums := rowA[ic-i0:]
					if !needRows {
						sums = nil // nothing reads them
					} else if jc > j0 {
						sums = make([]int32, mc) // counted once, on the first block
					}
					if direct {
						sumRowsU8(a, lda, ic, mc, pc, kc, sums)
					} else {
						packAI(abuf, a, lda, flipA, ic, mc, pc, kc, sums)
					}
					for jr := 0; jr < nc; jr += nrI {
						cols := min(nrI, nc-jr)
						var bs []byte
						if pb != nil {
							bs = pb.panel(pc, k4, jc+jr)
						} else {
							bs = bbuf[(jr/nrI)*k4*nrI*4:]
						}
						for ir := 0; ir < mc; ir += mrI {
							rows := min(mrI, mc-ir)
							if direct {
								var init []int32
								if fold && pc == 0 {
									init = colTerm[jr : jr+nrI]
								}
								tileDirect(rows, k4, a[(ic+ir)*lda+pc:], lda, bs, c[(ic+ir)*ldc+jc+jr:], ldc, cols, pc > 0, init)
							} else {
								kI.tile(rows, k4, abuf[ir*k4*4:], bs, c[(ic+ir)*ldc+jc+jr:], ldc, cols, pc > 0)
							}
						}
					}
				}
			}
			if fold {
				continue // the kernel started from the correction
			}
			// The zero points: C += zb'_j*(k*za'_i - rowA'_i) - za'_i*colB'_j.
			if len(bZero) > 1 {
				for j, z := range bZero[jc : jc+nc] {
					zb[j] = z + shiftB
				}
			} else {
				z := zeroAt(bZero, 0) + shiftB
				for j := range zb[:nc] {
					zb[j] = z
				}
			}
			k32 := int32(k)
			for i := i0; i < i1; i++ {
				za := zeroAt(aZero, i) + shiftA
				t := k32*za - rowA[i-i0]
				zeroFix(c[i*ldc+jc:i*ldc+jc+nc], zb, colB, t, za)
			}
		}
		return nil
	})
}
