//go:build amd64 && !purego

#include "textflag.h"

// In Intel's operand order VMAXPS dst, a, b gives a where a > b and b
// otherwise, NaN and equal zeros included: with a = lo and b = x that is
// "lo where x < lo, else x", and VMINPS dst, hi, t is "hi where t > hi,
// else t". Go's assembler writes the operands the other way round.
#define CLAMP4(MAX, MIN, MOV, STEP) \
	MOV (SI)(AX*1), Y0 \
	MOV STEP(SI)(AX*1), Y1 \
	MOV 2*STEP(SI)(AX*1), Y2 \
	MOV 3*STEP(SI)(AX*1), Y3 \
	MAX Y0, Y14, Y0 \
	MAX Y1, Y14, Y1 \
	MAX Y2, Y14, Y2 \
	MAX Y3, Y14, Y3 \
	MIN Y0, Y15, Y0 \
	MIN Y1, Y15, Y1 \
	MIN Y2, Y15, Y2 \
	MIN Y3, Y15, Y3 \
	MOV Y0, (DI)(AX*1) \
	MOV Y1, STEP(DI)(AX*1) \
	MOV Y2, 2*STEP(DI)(AX*1) \
	MOV Y3, 3*STEP(DI)(AX*1)

// func clampF32AVX(dst, src *float32, n int, lo, hi float32)
// n is a multiple of 32.
TEXT ·clampF32AVX(SB), NOSPLIT, $0-32
	MOVQ         dst+0(FP), DI
	MOVQ         src+8(FP), SI
	MOVQ         n+16(FP), CX
	VBROADCASTSS lo+24(FP), Y14
	VBROADCASTSS hi+28(FP), Y15
	SHLQ         $2, CX
	XORQ         AX, AX

loop32:
	CMPQ AX, CX
	JAE  done32
	CLAMP4(VMAXPS, VMINPS, VMOVUPS, 32)
	ADDQ $128, AX
	JMP  loop32

done32:
	VZEROUPPER
	RET

// func clampF64AVX(dst, src *float64, n int, lo, hi float64)
// n is a multiple of 16.
TEXT ·clampF64AVX(SB), NOSPLIT, $0-40
	MOVQ         dst+0(FP), DI
	MOVQ         src+8(FP), SI
	MOVQ         n+16(FP), CX
	VBROADCASTSD lo+24(FP), Y14
	VBROADCASTSD hi+32(FP), Y15
	SHLQ         $3, CX
	XORQ         AX, AX

loop64:
	CMPQ AX, CX
	JAE  done64
	CLAMP4(VMAXPD, VMINPD, VMOVUPD, 32)
	ADDQ $128, AX
	JMP  loop64

done64:
	VZEROUPPER
	RET
