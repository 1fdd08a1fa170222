//go:build amd64 && !purego

#include "textflag.h"

// func addRows32AVX2(y *float32, n, ld, rows int, b *float32)
//
// y[i*ld+j] += b[i] for i in [0, rows), j in [0, n): eight columns a step
// (VADDPS), the last n%8 one at a time (VADDSS): the same rounding as the
// scalar add.
TEXT ·addRows32AVX2(SB), NOSPLIT, $0-40
	MOVQ y+0(FP), DI
	MOVQ n+8(FP), CX
	MOVQ ld+16(FP), R8
	SHLQ $2, R8
	MOVQ rows+24(FP), R9
	MOVQ b+32(FP), SI
	MOVQ CX, R10
	ANDQ $-32, R10 // columns done 32 at a time
	MOVQ CX, R11
	ANDQ $-8, R11  // then 8 at a time

row:
	TESTQ        R9, R9
	JE           done
	VBROADCASTSS (SI), Y0
	XORQ         AX, AX

block32:
	CMPQ    AX, R10
	JAE     block8
	VADDPS  (DI)(AX*4), Y0, Y1
	VADDPS  32(DI)(AX*4), Y0, Y2
	VADDPS  64(DI)(AX*4), Y0, Y3
	VADDPS  96(DI)(AX*4), Y0, Y4
	VMOVUPS Y1, (DI)(AX*4)
	VMOVUPS Y2, 32(DI)(AX*4)
	VMOVUPS Y3, 64(DI)(AX*4)
	VMOVUPS Y4, 96(DI)(AX*4)
	ADDQ    $32, AX
	JMP     block32

block8:
	CMPQ    AX, R11
	JAE     tail
	VADDPS  (DI)(AX*4), Y0, Y1
	VMOVUPS Y1, (DI)(AX*4)
	ADDQ    $8, AX
	JMP     block8

tail:
	CMPQ   AX, CX
	JAE    next
	VMOVSS (DI)(AX*4), X1
	VADDSS X0, X1, X1
	VMOVSS X1, (DI)(AX*4)
	INCQ   AX
	JMP    tail

next:
	ADDQ $4, SI
	ADDQ R8, DI
	DECQ R9
	JMP  row

done:
	VZEROUPPER
	RET
