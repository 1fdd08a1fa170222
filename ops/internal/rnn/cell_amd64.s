//go:build amd64 && !purego

// The vector loops of an LSTM cell's state and output (cell.go), the
// scalar loops' operations in their order, 8 elements an iteration in AVX
// registers: lstmStateAVX computes c = f*c + i*g as two VMULPS then one
// VADDPS (never fused, as the Go loop rounds each product), mulAVX o = a*b.

#include "textflag.h"

// func lstmStateAVX(c, gc, gf, gi unsafe.Pointer, n int)
// n is a multiple of 8.
TEXT ·lstmStateAVX(SB), NOSPLIT, $0-40
	MOVQ c+0(FP), DI
	MOVQ gc+8(FP), SI
	MOVQ gf+16(FP), R8
	MOVQ gi+24(FP), R9
	MOVQ n+32(FP), CX
	XORQ AX, AX
	SHRQ $3, CX
	JZ   statedone
stateloop:
	VMOVUPS (R8)(AX*1), Y0
	VMULPS  (DI)(AX*1), Y0, Y0
	VMOVUPS (R9)(AX*1), Y1
	VMULPS  (SI)(AX*1), Y1, Y1
	VADDPS  Y1, Y0, Y0
	VMOVUPS Y0, (DI)(AX*1)
	VMOVUPS Y0, (SI)(AX*1)
	ADDQ $32, AX
	DECQ CX
	JNZ  stateloop
statedone:
	VZEROUPPER
	RET

// func mulAVX(o, a, b unsafe.Pointer, n int)
// n is a multiple of 8.
TEXT ·mulAVX(SB), NOSPLIT, $0-32
	MOVQ o+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), R8
	MOVQ n+24(FP), CX
	XORQ AX, AX
	SHRQ $3, CX
	JZ   muldone
mulloop:
	VMOVUPS (SI)(AX*1), Y0
	VMULPS  (R8)(AX*1), Y0, Y0
	VMOVUPS Y0, (DI)(AX*1)
	ADDQ $32, AX
	DECQ CX
	JNZ  mulloop
muldone:
	VZEROUPPER
	RET
