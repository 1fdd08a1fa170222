//go:build ignore

// gen writes kernels_amd64.s, the micro-kernels of package gemm, in Go's
// Plan 9 assembly, and with -in-place integerkernels_amd64.s, the 8-bit
// kernel that reads A where it lies (vnni), and with -transposed
// transposed_amd64.s, the float32 kernel with C's rows on the lanes
// (kernelT). Run it from ops/internal/gemm:
//
//	go run ./asm/gen.go -o kernels_amd64.s
//	go run ./asm/gen.go -in-place -o integerkernels_amd64.s
//	go run ./asm/gen.go -transposed -o transposed_amd64.s
//
// TestKernelsCurrent (kernels_test.go) and TestIntegerKernelsCurrent
// (integerkernels_test.go) run it again and fail when a committed file
// differs from its output.
//
// Every kernel computes one tile of C = alpha*A*B + beta*C, rows×cols
// with rows <= MR and cols <= NR (two vectors per row of the tile; the
// float32 AVX-512 kernels named ...H, for cols <= NR/2, one):
//
//	kernel(rows, k int, a *T, lda int, b *T, ldb int, c *T, ldc int, mask, alpha, beta T)
//
// A is read in place, row r at a + r*lda, one element per step of k
// broadcast to every lane (the kernels named ...P read A packed in panels
// instead, element (r, p) at a + p*MR + r, lda unused); B is read a row of the tile's NR columns per
// step of k, at b + p*ldb (a packed panel has ldb = NR, B in place its own
// stride); the MR×NR sums live in vector registers for all of k and are
// written once: C = alpha*sum, plus beta*C when beta is not 0 (C is not
// read when it is). This is the structure of the BLIS micro-kernel and of
// onnxruntime MLAS's SgemmKernel (A in place, B in panels), written anew.
//
// The AVX-512 kernels take the columns as a bit mask (bit j set: column j
// is in the tile) and mask every load of B and every load and store of C,
// so a tile at the right edge never touches memory past its last column.
// The AVX2 kernels read all NR columns of B (the caller pads the last
// panel) and take mask as a pointer to a lane mask for C, nil when all NR
// columns are in the tile.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"log"
	"os"
)

type isa struct {
	name    string // function name
	reg     string // "Z" or "Y"
	vec     int    // bytes per vector
	size    int    // bytes per element
	mr      int    // rows of the tile
	avx512  bool   // masked loads and stores with K1, K2
	goType  string // element type, for the comment
	nameArg string // how mask is declared, for the comment
	packedA bool   // A in panels: element (r, p) at a + (p*mr + r)*size
	finish  bool   // three more arguments: a bias per row, a clamp and a bias per column
	half    bool   // one vector per row of the tile (a tile of at most NR/2 columns)
}

// nv is the vectors per row of the tile.
func (s isa) nv() int {
	if s.half {
		return 1
	}
	return 2
}

func (s isa) lanes() int { return s.vec / s.size }
func (s isa) suf() string {
	if s.size == 4 {
		return "PS"
	}
	return "PD"
}
func (s isa) bcast() string {
	if s.size == 4 {
		return "VBROADCASTSS"
	}
	return "VBROADCASTSD"
}
func (s isa) shift() int {
	if s.size == 4 {
		return 2
	}
	return 3
}

var out bytes.Buffer

func p(format string, args ...any) { fmt.Fprintf(&out, format+"\n", args...) }

// Row bases: rows 3q..3q+2 of A (and later of C) are addressed from the
// base register of q with the stride register times 0, 1 or 2.
var bases = []string{"SI", "DI", "R8", "R9"}

func rowAddr(r int, off int, stride string) string {
	base := bases[r/3]
	o := ""
	if off != 0 {
		o = fmt.Sprint(off)
	}
	switch r % 3 {
	case 0:
		return fmt.Sprintf("%s(%s)", o, base)
	case 1:
		return fmt.Sprintf("%s(%s)(%s*1)", o, base, stride)
	}
	return fmt.Sprintf("%s(%s)(%s*2)", o, base, stride)
}

// setBases computes the base registers of the rows from SI and stride.
func setBases(rows int, stride string) {
	for q := 1; q*3 < rows; q++ {
		p("\tLEAQ (%s)(%s*2), %s", bases[q-1], stride, bases[q])
		p("\tADDQ %s, %s", stride, bases[q])
	}
}

func acc(s isa, r, v int) string { return fmt.Sprintf("%s%d", s.reg, 2*r+v) }

func kernel(s isa) {
	argBytes := 72 + 2*s.size
	alphaOff, betaOff := 72, 72+s.size
	if s.finish {
		argBytes += 24
		p("// func %s(rows, k int, a *%s, lda int, b *%s, ldb int, c *%s, ldc int, %s, alpha, beta %s, bias *%s, clamp *[2]%s, colBias *%s)", s.name, s.goType, s.goType, s.goType, s.nameArg, s.goType, s.goType, s.goType, s.goType)
	} else {
		p("// func %s(rows, k int, a *%s, lda int, b *%s, ldb int, c *%s, ldc int, %s, alpha, beta %s)", s.name, s.goType, s.goType, s.goType, s.nameArg, s.goType)
	}
	p("// requires: %s", map[bool]string{true: "AVX512F", false: "AVX2, FMA"}[s.avx512])
	p("TEXT ·%s(SB), NOSPLIT, $0-%d", s.name, argBytes)
	p("\tMOVQ a+16(FP), SI")
	p("\tMOVQ lda+24(FP), DX")
	p("\tSHLQ $%d, DX", s.shift())
	p("\tMOVQ b+32(FP), BX")
	p("\tMOVQ ldb+40(FP), R10")
	p("\tSHLQ $%d, R10", s.shift())
	p("\tMOVQ k+8(FP), CX")
	if s.avx512 {
		p("\t// K1 masks the first vector of a row of the tile, K2 the second.")
		p("\tMOVQ mask+64(FP), AX")
		p("\tKMOVW AX, K1")
		p("\tSHRQ $%d, AX", s.lanes())
		p("\tKMOVW AX, K2")
	}
	if !s.packedA {
		setBases(s.mr, "DX")
	}
	p("\tMOVQ rows+0(FP), AX")
	for r := s.mr; r > 1; r-- {
		p("\tCMPQ AX, $%d", r)
		p("\tJEQ rows%d", r)
	}
	p("\tJMP rows1")
	for r := s.mr; r >= 1; r-- {
		variant(s, r, alphaOff, betaOff)
	}
}

// variant is the code for a tile of exactly rows rows.
func variant(s isa, rows, alphaOff, betaOff int) {
	L := func(x string) string { return fmt.Sprintf("rows%d%s", rows, x) }
	nacc := 2 * rows
	bReg := [2]string{fmt.Sprintf("%s%d", s.reg, 2*s.mr), fmt.Sprintf("%s%d", s.reg, 2*s.mr+1)}
	var tmps []string
	for i := 2*s.mr + 2; i < map[bool]int{true: 32, false: 16}[s.avx512]; i++ {
		tmps = append(tmps, fmt.Sprintf("%s%d", s.reg, i))
	}
	p("")
	p("%s:", L(""))
	p("\t// %d rows: %d sums in %s0-%s%d.", rows, nacc, s.reg, s.reg, nacc-1)
	p("\t// Prefetch the tile of C, needed at the end.")
	p("\tMOVQ c+48(FP), AX")
	p("\tMOVQ ldc+56(FP), R12")
	p("\tSHLQ $%d, R12", s.shift())
	for r := range rows {
		p("\tPREFETCHT0 (AX)")
		p("\tPREFETCHT0 %d(AX)", s.nv()*s.vec-1)
		if r < rows-1 {
			p("\tADDQ R12, AX")
		}
	}
	for i := range nacc {
		if s.avx512 {
			p("\tVPXORD %s%d, %s%d, %s%d", s.reg, i, s.reg, i, s.reg, i)
		} else {
			p("\tVXOR%s %s%d, %s%d, %s%d", s.suf(), s.reg, i, s.reg, i, s.reg, i)
		}
	}
	t := 0
	// step is one p: a row of B into bReg, then for each row of A one
	// element broadcast and two FMAs.
	step := func(half int, bAddr [2]string) {
		for v := range s.nv() {
			if s.avx512 {
				p("\tVMOVU%s.Z %s, K%d, %s", s.suf(), bAddr[v], v+1, bReg[v])
			} else {
				p("\tVMOVU%s %s, %s", s.suf(), bAddr[v], bReg[v])
			}
		}
		for r := range rows {
			tr := tmps[t%len(tmps)]
			t++
			if s.packedA {
				p("\t%s %d(SI), %s", s.bcast(), (half*s.mr+r)*s.size, tr)
			} else {
				p("\t%s %s, %s", s.bcast(), rowAddr(r, half*s.size, "DX"), tr)
			}
			for v := range s.nv() {
				p("\tVFMADD231%s %s, %s, %s", s.suf(), tr, bReg[v], acc(s, r, v))
			}
		}
	}
	p("\t// Two steps of k per turn, then the odd one.")
	p("\tMOVQ CX, R11")
	p("\tSHRQ $1, R11")
	p("\tJZ %s", L("odd"))
	p("%s:", L("loop"))
	step(0, [2]string{"(BX)", fmt.Sprintf("%d(BX)", s.vec)})
	step(1, [2]string{"(BX)(R10*1)", fmt.Sprintf("%d(BX)(R10*1)", s.vec)})
	if s.packedA && s.avx512 && s.size == 4 {
		// The float32 kernels on packed A prefetch A lda elements ahead,
		// 96 bytes a turn in two lines 48 bytes apart (every line of the
		// stream once or twice): a product streaming its packed weights
		// passes the next tile's panel (lda = mr*kc) while it computes
		// this one. lda 0 (a panel packed for this product, in L1 or L2)
		// touches the lines being read.
		p("\t%s (SI)(DX*1)", prefetchAHint)
		p("\t%s 48(SI)(DX*1)", prefetchAHint)
	}
	if s.packedA {
		p("\tADDQ $%d, SI", 2*s.mr*s.size)
	} else {
		for q := 0; q*3 < rows; q++ {
			p("\tADDQ $%d, %s", 2*s.size, bases[q])
		}
	}
	p("\tLEAQ (BX)(R10*2), BX")
	p("\tDECQ R11")
	p("\tJNZ %s", L("loop"))
	p("%s:", L("odd"))
	p("\tTESTQ $1, CX")
	p("\tJZ %s", L("store"))
	step(0, [2]string{"(BX)", fmt.Sprintf("%d(BX)", s.vec)})

	p("%s:", L("store"))
	p("\t// C = alpha*sum (+ beta*C unless beta is 0, when C is not read).")
	p("\tMOVQ c+48(FP), SI")
	p("\tMOVQ ldc+56(FP), DX")
	p("\tSHLQ $%d, DX", s.shift())
	setBases(rows, "DX")
	alpha, beta, tmp := bReg[0], bReg[1], tmps[0]
	// alpha 1 (every product but Gemm's with an alpha) skips the
	// multiplies: a short k (a 1x1 convolution over 16 channels) spends a
	// tenth of its time on them otherwise.
	if s.size == 4 {
		p("\tMOVL alpha+%d(FP), AX", alphaOff)
		p("\tCMPL AX, $0x3f800000")
	} else {
		p("\tMOVQ alpha+%d(FP), AX", alphaOff)
		p("\tMOVQ $0x3ff0000000000000, R11")
		p("\tCMPQ AX, R11")
	}
	p("\tJEQ %s", L("alpha1"))
	p("\t%s alpha+%d(FP), %s", s.bcast(), alphaOff, alpha)
	for r := range rows {
		for v := range s.nv() {
			p("\tVMUL%s %s, %s, %s", s.suf(), alpha, acc(s, r, v), acc(s, r, v))
		}
	}
	p("%s:", L("alpha1"))
	if s.size == 4 {
		p("\tMOVL beta+%d(FP), AX", betaOff)
		p("\tSHLL $1, AX")
	} else {
		p("\tMOVQ beta+%d(FP), AX", betaOff)
		p("\tSHLQ $1, AX")
	}
	p("\tJZ %s // beta is +0 or -0", L("nobeta"))
	p("\t%s beta+%d(FP), %s", s.bcast(), betaOff, beta)
	cAddr := func(r, v int) string { return rowAddr(r, v*s.vec, "DX") }
	if s.avx512 {
		for r := range rows {
			for v := range s.nv() {
				p("\tVMOVU%s.Z %s, K%d, %s", s.suf(), cAddr(r, v), v+1, tmp)
				p("\tVFMADD231%s %s, %s, %s", s.suf(), tmp, beta, acc(s, r, v))
			}
		}
		p("%s:", L("nobeta"))
		if s.finish {
			finish(s, rows, L, tmp, alpha, beta)
		}
		for r := range rows {
			for v := range s.nv() {
				p("\tVMOVU%s %s, K%d, %s", s.suf(), acc(s, r, v), v+1, cAddr(r, v))
			}
		}
		p("\tVZEROUPPER")
		p("\tRET")
		return
	}
	// AVX2: all NR columns (mask is nil) or a lane mask in tmps[0:2].
	m0, m1 := tmps[0], tmps[1]
	p("\tMOVQ mask+64(FP), AX")
	p("\tTESTQ AX, AX")
	p("\tJNZ %s", L("maskbeta"))
	for r := range rows {
		for v := range s.nv() {
			p("\tVFMADD231%s %s, %s, %s", s.suf(), cAddr(r, v), beta, acc(s, r, v))
		}
	}
	p("\tJMP %s", L("full"))
	p("%s:", L("maskbeta"))
	p("\tVMOVU%s (AX), %s", s.suf(), m0)
	p("\tVMOVU%s %d(AX), %s", s.suf(), s.vec, m1)
	for r := range rows {
		for v := range s.nv() {
			p("\tVMASKMOV%s %s, %s, %s", s.suf(), cAddr(r, v), []string{m0, m1}[v], alpha)
			p("\tVFMADD231%s %s, %s, %s", s.suf(), alpha, beta, acc(s, r, v))
		}
	}
	p("\tJMP %s", L("mask"))
	p("%s:", L("nobeta"))
	p("\tMOVQ mask+64(FP), AX")
	p("\tTESTQ AX, AX")
	p("\tJNZ %s", L("mask"))
	p("%s:", L("full"))
	for r := range rows {
		for v := range s.nv() {
			p("\tVMOVU%s %s, %s", s.suf(), acc(s, r, v), cAddr(r, v))
		}
	}
	p("\tVZEROUPPER")
	p("\tRET")
	p("%s:", L("mask"))
	p("\tVMOVU%s (AX), %s", s.suf(), m0)
	p("\tVMOVU%s %d(AX), %s", s.suf(), s.vec, m1)
	for r := range rows {
		for v := range s.nv() {
			p("\tVMASKMOV%s %s, %s, %s", s.suf(), acc(s, r, v), []string{m0, m1}[v], cAddr(r, v))
		}
	}
	p("\tVZEROUPPER")
	p("\tRET")
}

// finish writes the kernels' finish, after the sums (and beta*C) are in
// the accumulators and before they are stored: with bias not nil, each
// row r's bias[r] added (one rounding, the bias as the first operand as in
// package conv's vector bias add), then with colBias not nil each column
// j's colBias[j] added (one rounding, the sum as the first operand as in
// an Add after the product; the lanes past the tile's columns are not
// read), then with clamp not nil every element
// limited to [clamp[0], clamp[1]] as package clamp does it (in Intel's
// operand order VMAXPS dst, lo, x is "lo where lo > x, else x", NaN and
// equal zeros kept; VMINPS dst, hi, t "hi where hi < t, else t"; Go's
// assembler writes the operands the other way round). The caller passes
// them only with the last block of k.
func finish(s isa, rows int, L func(string) string, tmp, lo, hi string) {
	biasOff := 72 + 2*s.size
	p("\t// The finish: bias per row, then the clamp.")
	p("\tMOVQ bias+%d(FP), AX", biasOff)
	p("\tTESTQ AX, AX")
	p("\tJZ %s", L("nobias"))
	for r := range rows {
		p("\t%s %d(AX), %s", s.bcast(), r*s.size, tmp)
		for v := range s.nv() {
			p("\tVADD%s %s, %s, %s", s.suf(), acc(s, r, v), tmp, acc(s, r, v))
		}
	}
	p("%s:", L("nobias"))
	p("\tMOVQ colBias+%d(FP), AX", biasOff+16)
	p("\tTESTQ AX, AX")
	p("\tJZ %s", L("nocolbias"))
	p("\tVMOVU%s.Z (AX), K1, %s", s.suf(), lo)
	if s.nv() == 2 {
		p("\tVMOVU%s.Z %d(AX), K2, %s", s.suf(), s.vec, hi)
	}
	for r := range rows {
		for v, b := range []string{lo, hi}[:s.nv()] {
			p("\tVADD%s %s, %s, %s", s.suf(), b, acc(s, r, v), acc(s, r, v))
		}
	}
	p("%s:", L("nocolbias"))
	p("\tMOVQ clamp+%d(FP), AX", biasOff+8)
	p("\tTESTQ AX, AX")
	p("\tJZ %s", L("noclamp"))
	p("\t%s (AX), %s", s.bcast(), lo)
	p("\t%s %d(AX), %s", s.bcast(), s.size, hi)
	for r := range rows {
		for v := range s.nv() {
			p("\tVMAX%s %s, %s, %s", s.suf(), acc(s, r, v), lo, acc(s, r, v))
			p("\tVMIN%s %s, %s, %s", s.suf(), acc(s, r, v), hi, acc(s, r, v))
		}
	}
	p("%s:", L("noclamp"))
}

// vnni is the 8-bit kernel: a tile of D = A'*B' for A' unsigned and B'
// signed bytes, both packed in groups of four steps of k (one int32 lane
// holds four bytes): A's panel holds the four bytes of row r for quad q
// at a + (q*12 + r)*4, B's panel the four bytes of column j at
// b + q*128 + j*4. VPDPBUSD multiplies the unsigned bytes of A by the
// signed bytes of B and adds each lane's four products to an int32 sum:
// exact, no 16-bit saturation. C = D when add is 0, else C += D; the
// caller corrects for the zero points.
//
// With inPlace it is kernelU8S8VNNIA (written to integerkernels_amd64.s
// by -in-place): the same tile, but A read where it lies, the four bytes
// of quad q of row r at a + r*lda + 4q, broadcast to every lane. No copy
// of A, so no flip: A must be unsigned (uint8) and k a multiple of 4 (the
// caller packs A otherwise). Columns are masked by mask (bit j: column j
// is in the tile) so the tile never touches C past it. When init is not
// nil, every row of D starts from its 32 int32 (a correction that is the
// same for every row, a per-tensor zero point's) instead of from 0.
func vnni(inPlace bool) {
	const mr = 12
	// The arguments' frame offsets: lda and init only in place.
	off := map[string]int{"b": 24, "c": 32, "ldc": 40, "mask": 48, "add": 56}
	if inPlace {
		off = map[string]int{"b": 32, "c": 40, "ldc": 48, "mask": 56, "add": 64}
		p("// func kernelU8S8VNNIA(rows, k4 int, a *byte, lda int, b *byte, c *int32, ldc int, mask uint64, add int, init *int32)")
		p("// requires: AVX512F, AVX512_VNNI")
		p("TEXT ·kernelU8S8VNNIA(SB), NOSPLIT, $0-80")
		p("\tMOVQ a+16(FP), SI")
		p("\tMOVQ lda+24(FP), DX")
	} else {
		p("// func kernelU8S8VNNI(rows, k4 int, a *byte, b *byte, c *int32, ldc int, mask uint64, add int)")
		p("// requires: AVX512F, AVX512_VNNI")
		p("TEXT ·kernelU8S8VNNI(SB), NOSPLIT, $0-64")
		p("\tMOVQ a+16(FP), SI")
	}
	p("\tMOVQ b+%d(FP), BX", off["b"])
	p("\tMOVQ k4+8(FP), CX")
	p("\tMOVQ mask+%d(FP), AX", off["mask"])
	p("\tKMOVW AX, K1")
	p("\tSHRQ $16, AX")
	p("\tKMOVW AX, K2")
	p("\tMOVQ rows+0(FP), AX")
	for r := mr; r > 1; r-- {
		p("\tCMPQ AX, $%d", r)
		p("\tJEQ rows%d", r)
	}
	p("\tJMP rows1")
	for rows := mr; rows >= 1; rows-- {
		L := func(x string) string { return fmt.Sprintf("rows%d%s", rows, x) }
		p("")
		p("%s:", L(""))
		if inPlace {
			setBases(rows, "DX")
			p("\tMOVQ init+72(FP), R10")
			p("\tTESTQ R10, R10")
			p("\tJZ %s", L("zero"))
			p("\tVMOVDQU32 (R10), Z24")
			p("\tVMOVDQU32 64(R10), Z25")
			for r := range rows {
				p("\tVMOVDQA32 Z24, Z%d", 2*r)
				p("\tVMOVDQA32 Z25, Z%d", 2*r+1)
			}
			p("\tJMP %s", L("start"))
			p("%s:", L("zero"))
		}
		for i := range 2 * rows {
			p("\tVPXORD Z%d, Z%d, Z%d", i, i, i)
		}
		if inPlace {
			p("%s:", L("start"))
		}
		t := 0
		step := func(half int) {
			p("\tVMOVDQU32 %d(BX), Z24", half*128)
			p("\tVMOVDQU32 %d(BX), Z25", half*128+64)
			for r := range rows {
				tr := fmt.Sprintf("Z%d", 26+t%6)
				t++
				if inPlace {
					p("\tVPBROADCASTD %s, %s", rowAddr(r, half*4, "DX"), tr)
				} else {
					p("\tVPBROADCASTD %d(SI), %s", (half*mr+r)*4, tr)
				}
				p("\tVPDPBUSD Z24, %s, Z%d", tr, 2*r)
				p("\tVPDPBUSD Z25, %s, Z%d", tr, 2*r+1)
			}
		}
		p("\tMOVQ CX, R11")
		p("\tSHRQ $1, R11")
		p("\tJZ %s", L("odd"))
		p("%s:", L("loop"))
		step(0)
		step(1)
		if inPlace {
			for q := 0; q*3 < rows; q++ {
				p("\tADDQ $8, %s", bases[q])
			}
		} else {
			p("\tADDQ $%d, SI", 2*mr*4)
		}
		p("\tADDQ $256, BX")
		p("\tDECQ R11")
		p("\tJNZ %s", L("loop"))
		p("%s:", L("odd"))
		p("\tTESTQ $1, CX")
		p("\tJZ %s", L("store"))
		step(0)
		p("%s:", L("store"))
		p("\tMOVQ c+%d(FP), SI", off["c"])
		p("\tMOVQ ldc+%d(FP), DX", off["ldc"])
		p("\tSHLQ $2, DX")
		setBases(rows, "DX")
		p("\tMOVQ add+%d(FP), AX", off["add"])
		p("\tTESTQ AX, AX")
		p("\tJZ %s", L("set"))
		for r := range rows {
			for v := range 2 {
				p("\tVMOVDQU32.Z %s, K%d, Z26", rowAddr(r, v*64, "DX"), v+1)
				p("\tVPADDD Z26, Z%d, Z%d", 2*r+v, 2*r+v)
			}
		}
		p("%s:", L("set"))
		for r := range rows {
			for v := range 2 {
				p("\tVMOVDQU32 Z%d, K%d, %s", 2*r+v, v+1, rowAddr(r, v*64, "DX"))
			}
		}
		p("\tVZEROUPPER")
		p("\tRET")
	}
}

// avx2int is the 8-bit kernel for AVX2 without VNNI, on the panels of
// vnni: one or two rows of A by 16 columns of B per call, into out (row r
// at out[16r:]). The bytes are widened to 16 bits (A's zero-extended, B's
// sign-extended) and multiplied by VPMADDWD, whose pairs of products
// (at most 2*255*128) cannot overflow its int32 lanes: exact, unlike
// VPMADDUBSW, which saturates at 16 bits. Each column gets two lanes (steps
// 0+1 and 2+3 of a quad), added by VPHADDD at the end.
func avx2int() {
	p("")
	p("// func kernelU8S8AVX2(rows, k4 int, a *byte, b *byte, out *[32]int32)")
	p("// requires: AVX2")
	p("TEXT ·kernelU8S8AVX2(SB), NOSPLIT, $0-40")
	p("\tMOVQ a+16(FP), SI")
	p("\tMOVQ b+24(FP), BX")
	p("\tMOVQ k4+8(FP), CX")
	p("\tMOVQ rows+0(FP), AX")
	p("\tMOVQ out+32(FP), DI")
	p("\t// Y0-Y3: row 0, columns 0-3, 4-7, 8-11, 12-15; Y4-Y7: row 1.")
	for i := range 8 {
		p("\tVPXOR Y%d, Y%d, Y%d", i, i, i)
	}
	p("loop:")
	for g := range 4 {
		p("\tVPMOVSXBW %d(BX), Y%d // columns %d-%d, 4 steps each", 16*g, 8+g, 4*g, 4*g+3)
	}
	for r := range 2 {
		if r == 1 {
			p("\tCMPQ AX, $2")
			p("\tJNE next")
		}
		p("\tVPBROADCASTD %d(SI), X12 // row %d's 4 bytes, in every dword", 4*r, r)
		p("\tVPMOVZXBW X12, Y12")
		for g := range 4 {
			t := 13 + g%3
			p("\tVPMADDWD Y%d, Y12, Y%d", 8+g, t)
			p("\tVPADDD Y%d, Y%d, Y%d", t, 4*r+g, 4*r+g)
		}
	}
	p("next:")
	p("\tADDQ $48, SI // a quad of A's panel: 12 rows of 4 bytes")
	p("\tADDQ $128, BX // a quad of B's panel: 32 columns of 4 bytes")
	p("\tDECQ CX")
	p("\tJNZ loop")
	p("\t// Add each column's two lanes and put the columns in order.")
	for r := range 2 {
		for h := range 2 {
			lo, hi := 4*r+2*h, 4*r+2*h+1
			p("\tVPHADDD Y%d, Y%d, Y8", hi, lo)
			p("\tVPERMQ $0xD8, Y8, Y8")
			p("\tVMOVDQU Y8, %d(DI)", 64*r+32*h)
		}
	}
	p("\tVZEROUPPER")
	p("\tRET")
}

// gatherA packs a panel of A for kernel32AVX512P: for each of k steps p,
// the elements of the panel's rows at column p (at a + offs[r] bytes, the
// rows in mask) gathered into one vector by VGATHERDPS and stored as 12
// floats at dst + p*48, the rows not in mask zero.
func gatherA() {
	p("")
	p("// func gatherA32(dst *float32, a *float32, offs *[16]int32, mask uint64, k int)")
	p("// requires: AVX512F")
	p("TEXT ·gatherA32(SB), NOSPLIT, $0-40")
	p("\tMOVQ dst+0(FP), DI")
	p("\tMOVQ a+8(FP), SI")
	p("\tMOVQ offs+16(FP), AX")
	p("\tVMOVDQU32 (AX), Z1")
	p("\tMOVQ mask+24(FP), AX")
	p("\tMOVQ k+32(FP), CX")
	p("\tMOVQ $0xfff, BX")
	p("\tKMOVW BX, K2 // the 12 floats of a step")
	p("\tTESTQ CX, CX")
	p("\tJZ done")
	p("loop:")
	p("\tKMOVW AX, K1 // the gather clears its mask: set it each step")
	p("\tVPXORD Z0, Z0, Z0")
	p("\tVGATHERDPS (SI)(Z1*1), K1, Z0")
	p("\tVMOVUPS Z0, K2, (DI)")
	p("\tADDQ $4, SI")
	p("\tADDQ $48, DI")
	p("\tDECQ CX")
	p("\tJNZ loop")
	p("done:")
	p("\tVZEROUPPER")
	p("\tRET")
}

// gatherB packs a panel of B stored transposed (op(B) = Bᵀ) for the
// AVX-512 float32 kernels: for each of k steps p, the elements at column p
// of the up to 32 rows of B (at b + offs[j] bytes, the rows in mask),
// gathered by two VGATHERDPS into the 32 floats at dst + p*128, the
// columns not in mask zero.
func gatherB() {
	p("")
	p("// func gatherB32(dst *float32, b *float32, offs *[32]int32, mask uint64, k int)")
	p("// requires: AVX512F")
	p("TEXT ·gatherB32(SB), NOSPLIT, $0-40")
	p("\tMOVQ dst+0(FP), DI")
	p("\tMOVQ b+8(FP), SI")
	p("\tMOVQ offs+16(FP), AX")
	p("\tVMOVDQU32 (AX), Z2")
	p("\tVMOVDQU32 64(AX), Z3")
	p("\tMOVQ mask+24(FP), AX")
	p("\tMOVQ AX, BX")
	p("\tSHRQ $16, BX")
	p("\tMOVQ k+32(FP), CX")
	p("\tTESTQ CX, CX")
	p("\tJZ done")
	p("loop:")
	p("\tKMOVW AX, K1 // a gather clears its mask: set them each step")
	p("\tKMOVW BX, K2")
	p("\tVPXORD Z0, Z0, Z0")
	p("\tVPXORD Z1, Z1, Z1")
	p("\tVGATHERDPS (SI)(Z2*1), K1, Z0")
	p("\tVGATHERDPS (SI)(Z3*1), K2, Z1")
	p("\tVMOVUPS Z0, (DI)")
	p("\tVMOVUPS Z1, 64(DI)")
	p("\tADDQ $4, SI")
	p("\tADDQ $128, DI")
	p("\tDECQ CX")
	p("\tJNZ loop")
	p("done:")
	p("\tVZEROUPPER")
	p("\tRET")
}

// panelB copies k rows of up to NR columns of B (rows ldb elements apart,
// the columns in mask) into a panel of NR columns, the rest zero.
func panelB(name string, size, lanes int) {
	suf := map[int]string{4: "PS", 8: "PD"}[size]
	p("")
	p("// func %s(dst, b unsafe.Pointer, ldb, k int, mask uint64)", name)
	p("// requires: AVX512F")
	p("TEXT ·%s(SB), NOSPLIT, $0-40", name)
	p("\tMOVQ dst+0(FP), DI")
	p("\tMOVQ b+8(FP), SI")
	p("\tMOVQ ldb+16(FP), DX")
	p("\tSHLQ $%d, DX", map[int]int{4: 2, 8: 3}[size])
	p("\tMOVQ k+24(FP), CX")
	p("\tMOVQ mask+32(FP), AX")
	p("\tKMOVW AX, K1")
	p("\tSHRQ $%d, AX", lanes)
	p("\tKMOVW AX, K2")
	p("\tTESTQ CX, CX")
	p("\tJZ done")
	p("loop:")
	p("\tVMOVU%s.Z (SI), K1, Z0", suf)
	p("\tVMOVU%s.Z 64(SI), K2, Z1", suf)
	p("\tVMOVU%s Z0, (DI)", suf)
	p("\tVMOVU%s Z1, 64(DI)", suf)
	p("\tADDQ DX, SI")
	p("\tADDQ $128, DI")
	p("\tDECQ CX")
	p("\tJNZ loop")
	p("done:")
	p("\tVZEROUPPER")
	p("\tRET")
}

// peak is a loop of independent FMAs on registers only, to measure the
// core's peak rate: n turns of chains FMAs each.
func peak(name, reg string, chains int) {
	p("")
	p("// func %s(n int)", name)
	p("// %d independent chains of VFMADD231PS on %s registers, n turns.", chains, reg)
	p("TEXT ·%s(SB), NOSPLIT, $0-8", name)
	p("\tMOVQ n+0(FP), CX")
	for i := range chains { // sums and sources 0: no denormals, no NaN
		if reg == "Z" {
			p("\tVPXORD %s%d, %s%d, %s%d", reg, i, reg, i, reg, i)
		} else {
			p("\tVXORPS %s%d, %s%d, %s%d", reg, i, reg, i, reg, i)
		}
	}
	for i := chains; i < chains+2; i++ {
		if reg == "Z" {
			p("\tVPXORD %s%d, %s%d, %s%d", reg, i, reg, i, reg, i)
		} else {
			p("\tVXORPS %s%d, %s%d, %s%d", reg, i, reg, i, reg, i)
		}
	}
	p("%sloop:", name)
	for i := range chains {
		p("\tVFMADD231PS %s%d, %s%d, %s%d", reg, chains, reg, chains+1, reg, i)
	}
	p("\tDECQ CX")
	p("\tJNZ %sloop", name)
	p("\tVZEROUPPER")
	p("\tRET")
}

func main() {
	o := flag.String("o", "kernels_amd64.s", "output file")
	inPlace := flag.Bool("in-place", false, "write the 8-bit kernel that reads A in place (integerkernels_amd64.s) instead")
	transposed := flag.Bool("transposed", false, "write the kernel with C's rows on the lanes (transposed_amd64.s) instead")
	flag.Parse()
	if *transposed {
		p("// Code generated by go run ./asm/gen.go -transposed; DO NOT EDIT.")
		p("")
		p("//go:build amd64 && !purego")
		p("")
		p("#include \"textflag.h\"")
		p("")
		p("// The kernel with C's rows on the lanes: see kernelT in asm/gen.go.")
		p("")
		kernelT()
		if err := os.WriteFile(*o, out.Bytes(), 0o644); err != nil {
			log.Fatal(err)
		}
		return
	}
	if *inPlace {
		p("// Code generated by go run ./asm/gen.go -in-place; DO NOT EDIT.")
	} else {
		p("// Code generated by go run ./asm/gen.go; DO NOT EDIT.")
	}
	p("")
	p("//go:build amd64 && !purego")
	p("")
	p("#include \"textflag.h\"")
	p("")
	if *inPlace {
		p("// The 8-bit micro-kernel with A in place: see vnni in asm/gen.go for what it computes.")
		p("")
		vnni(true)
	} else {
		p("// Micro-kernels: see asm/gen.go for what each computes and how.")
		p("")
		kernels()
	}
	if err := os.WriteFile(*o, out.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
}

// prefetchAHint is the prefetch the float32 AVX-512 kernels on packed A
// issue for the panel ahead.
var prefetchAHint = "PREFETCHT1"

// kernels writes every kernel of kernels_amd64.s.
func kernels() {
	for _, packedA := range []bool{false, true} {
		suffix := ""
		if packedA {
			suffix = "P"
		}
		kernel(isa{name: "kernel32AVX512" + suffix, reg: "Z", vec: 64, size: 4, mr: 12, avx512: true, goType: "float32", nameArg: "mask uint64", packedA: packedA, finish: true})
		p("")
		kernel(isa{name: "kernel32AVX512H" + suffix, reg: "Z", vec: 64, size: 4, mr: 12, avx512: true, goType: "float32", nameArg: "mask uint64", packedA: packedA, finish: true, half: true})
		p("")
		kernel(isa{name: "kernel64AVX512" + suffix, reg: "Z", vec: 64, size: 8, mr: 12, avx512: true, goType: "float64", nameArg: "mask uint64", packedA: packedA})
		p("")
		kernel(isa{name: "kernel32AVX2" + suffix, reg: "Y", vec: 32, size: 4, mr: 6, goType: "float32", nameArg: "mask *int32", packedA: packedA})
		p("")
		kernel(isa{name: "kernel64AVX2" + suffix, reg: "Y", vec: 32, size: 8, mr: 6, goType: "float64", nameArg: "mask *int64", packedA: packedA})
		p("")
	}
	vnni(false)
	avx2int()
	gatherA()
	gatherB()
	panelB("panelB32AVX512", 4, 16)
	panelB("panelB64AVX512", 8, 8)
	peak("peakAVX512", "Z", 24)
	peak("peakAVX2", "Y", 12)
}

// kernelT is the float32 AVX-512 kernel for products with few columns
// (a convolution's 7x7 plane: 49 columns take 4 vectors of a row of C
// where 3.06 would do): a tile of C of rows <= 32 rows by cols <= 12
// columns with C's rows on the lanes (two vectors per column of the
// tile), over one block of k (kc steps): A packed in a panel of 32 rows
// (element (r, p) at a + (p*32 + r)*4, zero past the tile's rows), B read
// in place (element (p, j) at b + p*ldb + j, broadcast to every lane):
//
//	kernelT32(rows, cols, kc int, a, b *float32, ldb int, ct *float32, flags int, c *float32, ldc int, idx *[16]int32, bias *float32, clamp *[2]float32, colBias *float32, pf uintptr)
//
// At every step of k it also prefetches one line, from pf on, into L2 (the
// caller spreads the next block of A's panel over the tiles of this one:
// read whole by the first tile of its block, it would come from L3 at a
// rate the core cannot get, while the other tiles find it in L1).
//
// It computes the other kernels' sums, bit for bit: the block's sum from
// +0 by fused multiply-adds in the order of k; unless flags has bit 0
// (the first block), the sum of the blocks before, which ct holds
// transposed (column j's 32 rows at ct + j*32), added to it in one
// rounding as the other kernels' beta-1 multiply-add does (VFMADD231PS C,
// 1, sum). Unless flags has bit 1 (the last block) the result goes back
// to ct. With it, the finish as in finish (bias per row as the first
// operand, then the bias per column, then the clamp), and the tile is
// written to C[r][j], r*ldc apart, by VSCATTERDPS (idx[r] = r*ldc*4
// bytes), masked to the tile's rows: alpha 1 and beta 0 only.
func kernelT() {
	p("// func kernelT32(rows, cols, kc int, a *float32, b *float32, ldb int, ct *float32, flags int, c *float32, ldc int, idx *[16]int32, bias *float32, clamp *[2]float32, colBias *float32, pf uintptr)")
	p("// requires: AVX512F")
	p("TEXT ·kernelT32(SB), NOSPLIT, $0-120")
	p("\t// K1 masks rows 0-15 of the tile, K2 rows 16-31.")
	p("\tMOVQ rows+0(FP), CX")
	p("\tMOVQ $1, DX")
	p("\tSHLQ CX, DX")
	p("\tDECQ DX")
	p("\tKMOVW DX, K1")
	p("\tSHRQ $16, DX")
	p("\tKMOVW DX, K2")
	p("\t// Z30 is 1.0 in every lane: the blocks are added as by beta 1.")
	p("\tMOVL $0x3f800000, AX")
	p("\tVPBROADCASTD AX, Z30")
	p("\tMOVQ a+24(FP), SI")
	p("\tMOVQ b+32(FP), BX")
	p("\tMOVQ ldb+40(FP), R10")
	p("\tSHLQ $2, R10")
	p("\tMOVQ ct+48(FP), DI")
	p("\tMOVQ flags+56(FP), R11")
	p("\tMOVQ kc+16(FP), CX")
	p("\tMOVQ pf+112(FP), R13")
	p("\tMOVQ cols+8(FP), AX")
	for n := nrT; n > 1; n-- {
		p("\tCMPQ AX, $%d", n)
		p("\tJEQ cols%d", n)
	}
	p("\tJMP cols1")
	for n := nrT; n >= 1; n-- {
		kernelTCols(n)
	}
}

// tPrefetch is how far ahead of its loads kernelT prefetches A's panel
// (bytes; 0: not at all).
var tPrefetch = 4096

// nrT is kernelT's most columns.
const nrT = 12

// kernelTCols is kernelT's code for a tile of exactly n columns: the sums
// in Z0-Z(2n-1) (column j in Z(2j) for rows 0-15, Z(2j+1) for 16-31), A's
// two vectors of a step in Z28 and Z29, B's element broadcast in Z31.
func kernelTCols(n int) {
	L := func(x string) string { return fmt.Sprintf("cols%d%s", n, x) }
	sum := func(j, v int) string { return fmt.Sprintf("Z%d", 2*j+v) }
	p("")
	p("%s:", L(""))
	for j := range n {
		for v := range 2 {
			p("\tVPXORD %s, %s, %s", sum(j, v), sum(j, v), sum(j, v))
		}
	}
	p("%s:", L("loop"))
	p("\tVMOVUPS (SI), Z28")
	p("\tVMOVUPS 64(SI), Z29")
	p("\tPREFETCHT1 (R13)")
	for j := range n {
		p("\tVBROADCASTSS %d(BX), Z31", 4*j)
		p("\tVFMADD231PS Z28, Z31, %s", sum(j, 0))
		p("\tVFMADD231PS Z29, Z31, %s", sum(j, 1))
	}
	p("\tADDQ $128, SI")
	p("\tADDQ R10, BX")
	p("\tADDQ $64, R13")
	p("\tDECQ CX")
	p("\tJNZ %s", L("loop"))
	p("\t// Not the first block: the blocks before, from ct, added.")
	p("\tTESTQ $1, R11")
	p("\tJNZ %s", L("first"))
	for j := range n {
		for v := range 2 {
			p("\tVFMADD231PS %d(DI), Z30, %s", 128*j+64*v, sum(j, v))
		}
	}
	p("%s:", L("first"))
	p("\tTESTQ $2, R11")
	p("\tJNZ %s", L("last"))
	for j := range n {
		for v := range 2 {
			p("\tVMOVUPS %s, %d(DI)", sum(j, v), 128*j+64*v)
		}
	}
	p("\tVZEROUPPER")
	p("\tRET")
	p("%s:", L("last"))
	p("\t// The finish: bias per row, then per column, then the clamp.")
	p("\tMOVQ bias+88(FP), AX")
	p("\tTESTQ AX, AX")
	p("\tJZ %s", L("nobias"))
	p("\tVMOVUPS.Z (AX), K1, Z24")
	p("\tVMOVUPS.Z 64(AX), K2, Z25")
	for j := range n {
		for v := range 2 {
			p("\tVADDPS %s, Z%d, %s", sum(j, v), 24+v, sum(j, v))
		}
	}
	p("%s:", L("nobias"))
	p("\tMOVQ colBias+104(FP), AX")
	p("\tTESTQ AX, AX")
	p("\tJZ %s", L("nocolbias"))
	for j := range n {
		p("\tVBROADCASTSS %d(AX), Z31", 4*j)
		for v := range 2 {
			p("\tVADDPS Z31, %s, %s", sum(j, v), sum(j, v))
		}
	}
	p("%s:", L("nocolbias"))
	p("\tMOVQ clamp+96(FP), AX")
	p("\tTESTQ AX, AX")
	p("\tJZ %s", L("noclamp"))
	p("\tVBROADCASTSS (AX), Z26")
	p("\tVBROADCASTSS 4(AX), Z27")
	for j := range n {
		for v := range 2 {
			p("\tVMAXPS %s, Z26, %s", sum(j, v), sum(j, v))
			p("\tVMINPS %s, Z27, %s", sum(j, v), sum(j, v))
		}
	}
	p("%s:", L("noclamp"))
	p("\t// Column j of the tile to C[r][j], r*ldc apart: one scatter per 16 rows.")
	p("\tMOVQ idx+80(FP), AX")
	p("\tVMOVDQU32 (AX), Z28")
	p("\tMOVQ c+64(FP), DI")
	p("\tMOVQ ldc+72(FP), DX")
	p("\tSHLQ $6, DX")
	p("\tLEAQ (DI)(DX*1), R12")
	for j := range n {
		p("\tKMOVW K1, K3")
		p("\tVSCATTERDPS %s, K3, %d(DI)(Z28*1)", sum(j, 0), 4*j)
		p("\tKMOVW K2, K3")
		p("\tVSCATTERDPS %s, K3, %d(R12)(Z28*1)", sum(j, 1), 4*j)
	}
	p("\tVZEROUPPER")
	p("\tRET")
}
