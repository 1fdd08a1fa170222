//go:build amd64 && !purego

#include "textflag.h"

// func windowQuads8AVX512(dst *byte, img *byte, offs *int32, quads int, segs *wseg, nseg int)
//
// One panel of 32 columns of the 8-bit windows, quads quads of rows: for
// quad q, row t (t in 0..3) is the 32 lanes that the segments load from
// img + offs[4q+t] (segment s: lane i, for each bit i of its mask, from
// img + offs[4q+t] + off + i; a masked load touches no lane outside the
// mask; lanes no segment covers hold anything), and the four rows are
// interleaved byte by byte into the 128 bytes at dst + 128q
// (gemm.Filler8's layout: column j's four bytes at 4j).
TEXT ·windowQuads8AVX512(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ img+8(FP), SI
	MOVQ offs+16(FP), R12
	MOVQ quads+24(FP), CX
	MOVQ segs+32(FP), R10
	MOVQ nseg+40(FP), R11
	SHLQ $4, R11
	ADDQ R10, R11 // one past the last segment

quad:
	TESTQ   CX, CX
	JE      done
	MOVLQSX (R12), R8
	MOVLQSX 4(R12), R9
	MOVLQSX 8(R12), R13
	MOVLQSX 12(R12), R14
	ADDQ    SI, R8
	ADDQ    SI, R9
	ADDQ    SI, R13
	ADDQ    SI, R14
	MOVQ    R10, BX

seg:
	CMPQ     BX, R11
	JAE      store
	MOVQ     (BX), DX
	KMOVD    8(BX), K1
	VMOVDQU8 (R8)(DX*1), K1, Y0
	VMOVDQU8 (R9)(DX*1), K1, Y1
	VMOVDQU8 (R13)(DX*1), K1, Y2
	VMOVDQU8 (R14)(DX*1), K1, Y3
	ADDQ     $16, BX
	JMP      seg

store:
	// Within each 128-bit lane: columns 0-7 (8-15) of rows 0,1 and 2,3
	// byte-interleaved, then word-interleaved into four columns a
	// register; the two lanes hold columns 0-15 and 16-31.
	VPUNPCKLBW Y1, Y0, Y4
	VPUNPCKHBW Y1, Y0, Y5
	VPUNPCKLBW Y3, Y2, Y6
	VPUNPCKHBW Y3, Y2, Y7
	VPUNPCKLWD Y6, Y4, Y0 // columns 0-3 | 16-19
	VPUNPCKHWD Y6, Y4, Y1 // 4-7 | 20-23
	VPUNPCKLWD Y7, Y5, Y2 // 8-11 | 24-27
	VPUNPCKHWD Y7, Y5, Y3 // 12-15 | 28-31
	VPERM2I128 $0x20, Y1, Y0, Y4
	VPERM2I128 $0x20, Y3, Y2, Y5
	VPERM2I128 $0x31, Y1, Y0, Y6
	VPERM2I128 $0x31, Y3, Y2, Y7
	VMOVDQU    Y4, (DI)
	VMOVDQU    Y5, 32(DI)
	VMOVDQU    Y6, 64(DI)
	VMOVDQU    Y7, 96(DI)
	ADDQ       $128, DI
	ADDQ       $16, R12
	DECQ       CX
	JMP        quad

done:
	VZEROUPPER
	RET
