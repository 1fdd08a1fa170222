//go:build amd64 && !purego

#include "textflag.h"

// func packB16AVX2(dst *byte, src *byte, ldb int, k4 int, flip uint32, sums *int32)
//
// packB16VNNI (integerpack_amd64.s) with AVX2: the same interleave, the
// column sums by VPMADDUBSW with bytes of 1 (a word is two bytes' sum, at
// most 256 in size: never saturated) then VPMADDWD with words of 1.
TEXT ·packB16AVX2(SB), NOSPLIT, $0-48
	MOVQ         dst+0(FP), DI
	MOVQ         src+8(FP), SI
	MOVQ         ldb+16(FP), DX
	MOVQ         k4+24(FP), CX
	MOVL         flip+32(FP), AX
	MOVQ         sums+40(FP), R10
	VMOVD        AX, X8
	VPBROADCASTD X8, X8
	MOVL         $0x01010101, AX
	VMOVD        AX, X9
	VPBROADCASTD X9, X9
	MOVL         $0x00010001, AX
	VMOVD        AX, X14
	VPBROADCASTD X14, X14
	VPXOR        X10, X10, X10
	VPXOR        X11, X11, X11
	VPXOR        X12, X12, X12
	VPXOR        X13, X13, X13
	LEAQ         (DX)(DX*2), R11

loop:
	TESTQ      CX, CX
	JZ         done
	VMOVDQU    (SI), X0
	VMOVDQU    (SI)(DX*1), X1
	VMOVDQU    (SI)(DX*2), X2
	VMOVDQU    (SI)(R11*1), X3
	VPXOR      X8, X0, X0
	VPXOR      X8, X1, X1
	VPXOR      X8, X2, X2
	VPXOR      X8, X3, X3
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
	VPMADDUBSW X0, X9, X0
	VPMADDUBSW X1, X9, X1
	VPMADDUBSW X2, X9, X2
	VPMADDUBSW X3, X9, X3
	VPMADDWD   X0, X14, X0
	VPMADDWD   X1, X14, X1
	VPMADDWD   X2, X14, X2
	VPMADDWD   X3, X14, X3
	VPADDD     X0, X10, X10
	VPADDD     X1, X11, X11
	VPADDD     X2, X12, X12
	VPADDD     X3, X13, X13
	ADDQ       $128, DI
	LEAQ       (SI)(DX*4), SI
	DECQ       CX
	JMP        loop

done:
	VPADDD  (R10), X10, X10
	VPADDD  16(R10), X11, X11
	VPADDD  32(R10), X12, X12
	VPADDD  48(R10), X13, X13
	VMOVDQU X10, (R10)
	VMOVDQU X11, 16(R10)
	VMOVDQU X12, 32(R10)
	VMOVDQU X13, 48(R10)
	VZEROUPPER
	RET
