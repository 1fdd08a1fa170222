//go:build amd64 && !purego

#include "textflag.h"

// The depthwise kernel over four full rows at once (depthwise4_amd64.go
// says what it computes): rowTaps32AVX512's sums, four independent
// chains of fused multiply-adds in flight instead of one.

// Indices of the even elements of two vectors (VPERMT2PS's two tables):
// 0, 2, ..., 30.
DATA evens4<>+0(SB)/4, $0
DATA evens4<>+4(SB)/4, $2
DATA evens4<>+8(SB)/4, $4
DATA evens4<>+12(SB)/4, $6
DATA evens4<>+16(SB)/4, $8
DATA evens4<>+20(SB)/4, $10
DATA evens4<>+24(SB)/4, $12
DATA evens4<>+28(SB)/4, $14
DATA evens4<>+32(SB)/4, $16
DATA evens4<>+36(SB)/4, $18
DATA evens4<>+40(SB)/4, $20
DATA evens4<>+44(SB)/4, $22
DATA evens4<>+48(SB)/4, $24
DATA evens4<>+52(SB)/4, $26
DATA evens4<>+56(SB)/4, $28
DATA evens4<>+60(SB)/4, $30
GLOBL evens4<>(SB), RODATA|NOPTR, $64

// func rows4Taps32AVX512(y *float32, ystep int, n int, srcs *unsafe.Pointer, ws *float32, taps int, stride int, bias float32, xstep int)
// requires: AVX512F
TEXT ·rows4Taps32AVX512(SB), NOSPLIT, $0-72
	MOVQ y+0(FP), DI
	MOVQ ystep+8(FP), R9
	MOVQ n+16(FP), CX
	MOVQ srcs+24(FP), SI
	MOVQ ws+32(FP), DX
	MOVQ taps+40(FP), R8
	VBROADCASTSS bias+56(FP), Z30
	MOVQ xstep+64(FP), R12
	LEAQ (R12)(R12*1), R13        // two rows down
	LEAQ (R13)(R12*1), R14        // three rows down
	XORQ R10, R10                 // byte offset of the block in each y row
	XORQ R11, R11                 // byte offset of the block in each tap's row
	MOVQ stride+48(FP), AX
	CMPQ AX, $2
	JEQ  s2

s1block:
	// K1: the block's outputs, min(CX, 16) of them.
	MOVL  $0xffff, AX
	CMPQ  CX, $16
	JGE   s1mask
	MOVL  $1, AX
	SHLL  CX, AX
	DECL  AX

s1mask:
	KMOVW AX, K1
	VMOVAPS Z30, Z0
	VMOVAPS Z30, Z1
	VMOVAPS Z30, Z2
	VMOVAPS Z30, Z3
	XORQ BX, BX

s1tap:
	MOVQ (SI)(BX*8), AX
	ADDQ R11, AX
	VBROADCASTSS (DX)(BX*4), Z4
	VMOVUPS.Z (AX), K1, Z5
	VMOVUPS.Z (AX)(R12*1), K1, Z6
	VMOVUPS.Z (AX)(R13*1), K1, Z7
	VMOVUPS.Z (AX)(R14*1), K1, Z8
	VFMADD231PS Z5, Z4, Z0
	VFMADD231PS Z6, Z4, Z1
	VFMADD231PS Z7, Z4, Z2
	VFMADD231PS Z8, Z4, Z3
	INCQ BX
	CMPQ BX, R8
	JLT  s1tap
	LEAQ (DI)(R10*1), AX
	VMOVUPS Z0, K1, (AX)
	VMOVUPS Z1, K1, (AX)(R9*1)
	LEAQ (AX)(R9*2), AX
	VMOVUPS Z2, K1, (AX)
	VMOVUPS Z3, K1, (AX)(R9*1)
	ADDQ $64, R10
	ADDQ $64, R11
	SUBQ $16, CX
	JG   s1block
	JMP  done

	// Stride 2: output j reads element 2j of each tap's row; a block of
	// c outputs reads 2c-1 elements, the evens of two vectors.
s2:
	VMOVUPS evens4<>(SB), Z31

s2block:
	// K3: the block's outputs; K1, K2: the elements it reads, all 32
	// when a 17th output follows (it reads element 32).
	MOVL  $0xffff, AX
	KMOVW AX, K1
	KMOVW AX, K2
	KMOVW AX, K3
	CMPQ  CX, $17
	JGE   s2go
	MOVQ  CX, BX
	MOVL  $1, AX
	SHLL  CX, AX
	DECL  AX
	KMOVW AX, K3
	LEAQ  -1(CX)(CX*1), CX        // 2c-1, 1..31
	MOVQ  $1, AX
	SHLQ  CX, AX
	DECQ  AX
	KMOVW AX, K1
	SHRQ  $16, AX
	KMOVW AX, K2
	MOVQ  BX, CX

s2go:
	VMOVAPS Z30, Z0
	VMOVAPS Z30, Z1
	VMOVAPS Z30, Z2
	VMOVAPS Z30, Z3
	XORQ BX, BX

s2tap:
	MOVQ (SI)(BX*8), AX
	ADDQ R11, AX
	VBROADCASTSS (DX)(BX*4), Z4
	VMOVUPS.Z (AX), K1, Z5
	VMOVUPS.Z 64(AX), K2, Z6
	VPERMT2PS Z6, Z31, Z5
	VMOVUPS.Z (AX)(R12*1), K1, Z7
	VMOVUPS.Z 64(AX)(R12*1), K2, Z8
	VPERMT2PS Z8, Z31, Z7
	VMOVUPS.Z (AX)(R13*1), K1, Z9
	VMOVUPS.Z 64(AX)(R13*1), K2, Z10
	VPERMT2PS Z10, Z31, Z9
	VMOVUPS.Z (AX)(R14*1), K1, Z11
	VMOVUPS.Z 64(AX)(R14*1), K2, Z12
	VPERMT2PS Z12, Z31, Z11
	VFMADD231PS Z5, Z4, Z0
	VFMADD231PS Z7, Z4, Z1
	VFMADD231PS Z9, Z4, Z2
	VFMADD231PS Z11, Z4, Z3
	INCQ BX
	CMPQ BX, R8
	JLT  s2tap
	LEAQ (DI)(R10*1), AX
	VMOVUPS Z0, K3, (AX)
	VMOVUPS Z1, K3, (AX)(R9*1)
	LEAQ (AX)(R9*2), AX
	VMOVUPS Z2, K3, (AX)
	VMOVUPS Z3, K3, (AX)(R9*1)
	ADDQ $64, R10
	ADDQ $128, R11
	SUBQ $16, CX
	JG   s2block

done:
	VZEROUPPER
	RET
