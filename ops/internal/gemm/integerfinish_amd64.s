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
