//go:build amd64 && !purego

#include "textflag.h"

// func zeroFixAVX2(row, zb, colB *int32, n int, t, za int32)
//
// row[j] += zb[j]*t - za*colB[j] for j in [0, n), n a multiple of 8, in
// int32 lanes (VPMULLD keeps the low 32 bits: wrapping as Go's int32).
TEXT ·zeroFixAVX2(SB), NOSPLIT, $0-40
	MOVQ         row+0(FP), DI
	MOVQ         zb+8(FP), SI
	MOVQ         colB+16(FP), DX
	MOVQ         n+24(FP), CX
	MOVL         t+32(FP), AX
	VMOVD        AX, X4
	VPBROADCASTD X4, Y4
	MOVL         za+36(FP), AX
	VMOVD        AX, X5
	VPBROADCASTD X5, Y5
	XORQ         AX, AX

loop:
	CMPQ    AX, CX
	JAE     done
	VPMULLD (SI)(AX*4), Y4, Y0
	VPMULLD (DX)(AX*4), Y5, Y1
	VPSUBD  Y1, Y0, Y0
	VPADDD  (DI)(AX*4), Y0, Y0
	VMOVDQU Y0, (DI)(AX*4)
	ADDQ    $8, AX
	JMP     loop

done:
	VZEROUPPER
	RET
