//go:build amd64 && !purego

#include "textflag.h"

// func interleave4AVX(d, s0, s1, s2, s3 *byte, n int)
//
// d[4o+t] = s_t[o] for o in [0, n), n a multiple of 8: per sixteen
// columns, the byte unpacks of (s0, s1) and (s2, s3), then the word
// unpacks of those, 64 bytes out; a last eight columns (a small image's
// rows) the same from 8-byte loads, 32 bytes out.
TEXT ·interleave4AVX(SB), NOSPLIT, $0-48
	MOVQ d+0(FP), DI
	MOVQ s0+8(FP), SI
	MOVQ s1+16(FP), R8
	MOVQ s2+24(FP), R9
	MOVQ s3+32(FP), R10
	MOVQ n+40(FP), CX
	XORQ AX, AX

loop:
	MOVQ       CX, BX
	SUBQ       AX, BX
	CMPQ       BX, $16
	JB         tail
	VMOVDQU    (SI)(AX*1), X0
	VMOVDQU    (R8)(AX*1), X1
	VMOVDQU    (R9)(AX*1), X2
	VMOVDQU    (R10)(AX*1), X3
	VPUNPCKLBW X1, X0, X4
	VPUNPCKHBW X1, X0, X5
	VPUNPCKLBW X3, X2, X6
	VPUNPCKHBW X3, X2, X7
	VPUNPCKLWD X6, X4, X0
	VPUNPCKHWD X6, X4, X1
	VPUNPCKLWD X7, X5, X2
	VPUNPCKHWD X7, X5, X3
	VMOVDQU    X0, (DI)
	VMOVDQU    X1, 16(DI)
	VMOVDQU    X2, 32(DI)
	VMOVDQU    X3, 48(DI)
	ADDQ       $64, DI
	ADDQ       $16, AX
	JMP        loop

tail:
	CMPQ       BX, $8
	JB         done
	VMOVQ      (SI)(AX*1), X0
	VMOVQ      (R8)(AX*1), X1
	VMOVQ      (R9)(AX*1), X2
	VMOVQ      (R10)(AX*1), X3
	VPUNPCKLBW X1, X0, X4
	VPUNPCKLBW X3, X2, X6
	VPUNPCKLWD X6, X4, X0
	VPUNPCKHWD X6, X4, X1
	VMOVDQU    X0, (DI)
	VMOVDQU    X1, 16(DI)

done:
	VZEROUPPER
	RET
