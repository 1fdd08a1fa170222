//go:build amd64 && !purego

#include "textflag.h"

// func finish32VNNI(dst *byte, k4 int, flip uint32, sums *int32)
//
// finishB for one panel of 32 columns and k4 quads: each of the 128 bytes
// of quad q (at dst+q*128; column j's four bytes in int32 lane j) xor
// flip (the byte four times), written back, and sums[j] (32 int32) gains
// the sum of column j's bytes as int8, by VPDPBUSD with bytes of 1.
// Requires AVX512F and AVX512_VNNI.
TEXT ·finish32VNNI(SB), NOSPLIT, $0-32
	MOVQ         dst+0(FP), DI
	MOVQ         k4+8(FP), CX
	MOVL         flip+16(FP), AX
	MOVQ         sums+24(FP), R10
	VPBROADCASTD AX, Z8
	MOVL         $0x01010101, AX
	VPBROADCASTD AX, Z9
	VPXORD       Z10, Z10, Z10
	VPXORD       Z11, Z11, Z11

loop:
	TESTQ     CX, CX
	JZ        done
	VPXORD    (DI), Z8, Z0
	VPXORD    64(DI), Z8, Z1
	VMOVDQU32 Z0, (DI)
	VMOVDQU32 Z1, 64(DI)
	VPDPBUSD  Z0, Z9, Z10
	VPDPBUSD  Z1, Z9, Z11
	ADDQ      $128, DI
	DECQ      CX
	JMP       loop

done:
	VPADDD    (R10), Z10, Z10
	VPADDD    64(R10), Z11, Z11
	VMOVDQU32 Z10, (R10)
	VMOVDQU32 Z11, 64(R10)
	VZEROUPPER
	RET

// func finish32AVX2(dst *byte, k4 int, flip uint32, sums *int32)
//
// finish32VNNI with AVX2: the column sums by VPMADDUBSW (bytes of 1 times
// the signed bytes: each word the sum of two bytes, at most 256 in size,
// never saturated) then VPMADDWD by words of 1 (the column's two words).
TEXT ·finish32AVX2(SB), NOSPLIT, $0-32
	MOVQ         dst+0(FP), DI
	MOVQ         k4+8(FP), CX
	MOVL         flip+16(FP), AX
	MOVQ         sums+24(FP), R10
	VMOVD        AX, X8
	VPBROADCASTD X8, Y8
	MOVL         $0x01010101, AX
	VMOVD        AX, X9
	VPBROADCASTD X9, Y9
	MOVL         $0x00010001, AX
	VMOVD        AX, X14
	VPBROADCASTD X14, Y14
	VPXOR        Y10, Y10, Y10
	VPXOR        Y11, Y11, Y11
	VPXOR        Y12, Y12, Y12
	VPXOR        Y13, Y13, Y13

loop:
	TESTQ      CX, CX
	JZ         done
	VPXOR      (DI), Y8, Y0
	VPXOR      32(DI), Y8, Y1
	VPXOR      64(DI), Y8, Y2
	VPXOR      96(DI), Y8, Y3
	VMOVDQU    Y0, (DI)
	VMOVDQU    Y1, 32(DI)
	VMOVDQU    Y2, 64(DI)
	VMOVDQU    Y3, 96(DI)
	VPMADDUBSW Y0, Y9, Y0
	VPMADDUBSW Y1, Y9, Y1
	VPMADDUBSW Y2, Y9, Y2
	VPMADDUBSW Y3, Y9, Y3
	VPMADDWD   Y0, Y14, Y0
	VPMADDWD   Y1, Y14, Y1
	VPMADDWD   Y2, Y14, Y2
	VPMADDWD   Y3, Y14, Y3
	VPADDD     Y0, Y10, Y10
	VPADDD     Y1, Y11, Y11
	VPADDD     Y2, Y12, Y12
	VPADDD     Y3, Y13, Y13
	ADDQ       $128, DI
	DECQ       CX
	JMP        loop

done:
	VPADDD  (R10), Y10, Y10
	VPADDD  32(R10), Y11, Y11
	VPADDD  64(R10), Y12, Y12
	VPADDD  96(R10), Y13, Y13
	VMOVDQU Y10, (R10)
	VMOVDQU Y11, 32(R10)
	VMOVDQU Y12, 64(R10)
	VMOVDQU Y13, 96(R10)
	VZEROUPPER
	RET
