//go:build amd64 && !purego

#include "textflag.h"

// func packB16VNNI(dst *byte, src *byte, ldb int, k4 int, flip uint32, sums *int32)
//
// packBI's inner loop for 16 columns and k4 whole quads of k: for quad q,
// the 16 bytes of rows 4q..4q+3 from src (row stride ldb), each xor flip,
// interleaved so that column j's four bytes form the int32 lane j of the
// 64 bytes at dst+q*128 (a panel of nrI = 32 columns); flip holds the
// byte four times. sums[j] (16 int32)
// gains the sum of column j's bytes as int8, by VPDPBUSD with bytes of 1.
// Requires AVX512_VNNI and AVX512VL (VPDPBUSD on XMM).
TEXT ·packB16VNNI(SB), NOSPLIT, $0-48
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
	VPDPBUSD   X0, X9, X10
	VPDPBUSD   X1, X9, X11
	VPDPBUSD   X2, X9, X12
	VPDPBUSD   X3, X9, X13
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
