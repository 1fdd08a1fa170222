//go:build amd64 && !purego

#include "textflag.h"

// The depthwise row kernel (depthwise_amd64.go says what it computes).

// Indices of the even elements of two vectors (Z2, Z3 as VPERMT2PS's two
// tables): 0, 2, ..., 30.
DATA evens<>+0(SB)/4, $0
DATA evens<>+4(SB)/4, $2
DATA evens<>+8(SB)/4, $4
DATA evens<>+12(SB)/4, $6
DATA evens<>+16(SB)/4, $8
DATA evens<>+20(SB)/4, $10
DATA evens<>+24(SB)/4, $12
DATA evens<>+28(SB)/4, $14
DATA evens<>+32(SB)/4, $16
DATA evens<>+36(SB)/4, $18
DATA evens<>+40(SB)/4, $20
DATA evens<>+44(SB)/4, $22
DATA evens<>+48(SB)/4, $24
DATA evens<>+52(SB)/4, $26
DATA evens<>+56(SB)/4, $28
DATA evens<>+60(SB)/4, $30
GLOBL evens<>(SB), RODATA|NOPTR, $64

// func rowTaps32AVX512(y *float32, n int, srcs *unsafe.Pointer, ws *float32, taps int, stride int, bias float32)
// requires: AVX512F
TEXT ·rowTaps32AVX512(SB), NOSPLIT, $0-52
	MOVQ y+0(FP), DI
	MOVQ n+8(FP), CX
	MOVQ srcs+16(FP), SI
	MOVQ ws+24(FP), DX
	MOVQ taps+32(FP), R8
	MOVQ stride+40(FP), R9
	VBROADCASTSS bias+48(FP), Z30
	XORQ R10, R10 // byte offset of the block in y
	XORQ R11, R11 // byte offset of the block in each tap's row
	CMPQ R9, $2
	JEQ  s2

s1loop:
	CMPQ CX, $16
	JLT  s1tail
	VMOVAPS Z30, Z0
	XORQ BX, BX

s1tap:
	MOVQ (SI)(BX*8), AX
	VBROADCASTSS (DX)(BX*4), Z1
	VFMADD231PS (AX)(R11*1), Z1, Z0
	INCQ BX
	CMPQ BX, R8
	JLT  s1tap
	VMOVUPS Z0, (DI)(R10*1)
	ADDQ $64, R10
	ADDQ $64, R11
	SUBQ $16, CX
	JMP  s1loop

s1tail:
	TESTQ CX, CX
	JEQ   done
	MOVL  $1, AX
	SHLL  CX, AX
	DECL  AX
	KMOVW AX, K1
	VMOVAPS Z30, Z0
	XORQ BX, BX

s1ttap:
	MOVQ (SI)(BX*8), AX
	VBROADCASTSS (DX)(BX*4), Z1
	VMOVUPS.Z (AX)(R11*1), K1, Z2
	VFMADD231PS Z2, Z1, Z0
	INCQ BX
	CMPQ BX, R8
	JLT  s1ttap
	VMOVUPS Z0, K1, (DI)(R10*1)
	JMP done

	// Stride 2: output j reads element 2j of each tap's row; a block of
	// 16 outputs reads 31 elements, two vectors' evens.
s2:
	VMOVUPS evens<>(SB), Z31

s2loop:
	CMPQ CX, $17 // a full block reads element 31 too, which the 17th output's tap holds
	JLT  s2tail
	VMOVAPS Z30, Z0
	XORQ BX, BX

s2tap:
	MOVQ (SI)(BX*8), AX
	VBROADCASTSS (DX)(BX*4), Z1
	VMOVUPS (AX)(R11*1), Z2
	VMOVUPS 64(AX)(R11*1), Z3
	VPERMT2PS Z3, Z31, Z2
	VFMADD231PS Z2, Z1, Z0
	INCQ BX
	CMPQ BX, R8
	JLT  s2tap
	VMOVUPS Z0, (DI)(R10*1)
	ADDQ $64, R10
	ADDQ $128, R11
	SUBQ $16, CX
	JMP  s2loop

s2tail:
	TESTQ CX, CX
	JEQ   done
	// K3: the outputs (CX of them, 1..16); K1, K2: the 2*CX-1 elements read.
	MOVL  $1, AX
	SHLL  CX, AX
	DECL  AX
	KMOVW AX, K3
	LEAQ  -1(CX)(CX*1), R12 // 2*CX-1, 1..31
	MOVQ  CX, R13
	MOVQ  R12, CX
	MOVQ  $1, AX
	SHLQ  CX, AX
	DECQ  AX
	KMOVW AX, K1
	SHRQ  $16, AX
	KMOVW AX, K2
	MOVQ  R13, CX
	VMOVAPS Z30, Z0
	XORQ BX, BX

s2ttap:
	MOVQ (SI)(BX*8), AX
	VBROADCASTSS (DX)(BX*4), Z1
	VMOVUPS.Z (AX)(R11*1), K1, Z2
	VMOVUPS.Z 64(AX)(R11*1), K2, Z3
	VPERMT2PS Z3, Z31, Z2
	VFMADD231PS Z2, Z1, Z0
	INCQ BX
	CMPQ BX, R8
	JLT  s2ttap
	VMOVUPS Z0, K3, (DI)(R10*1)

done:
	VZEROUPPER
	RET

// Sixteen all-ones lanes then sixteen zero lanes: the 8 lanes from index
// 16-m on are the mask of the first m lanes (VMASKMOVPS).
DATA lanes<>+0(SB)/8, $-1
DATA lanes<>+8(SB)/8, $-1
DATA lanes<>+16(SB)/8, $-1
DATA lanes<>+24(SB)/8, $-1
DATA lanes<>+32(SB)/8, $-1
DATA lanes<>+40(SB)/8, $-1
DATA lanes<>+48(SB)/8, $-1
DATA lanes<>+56(SB)/8, $-1
DATA lanes<>+64(SB)/8, $0
DATA lanes<>+72(SB)/8, $0
DATA lanes<>+80(SB)/8, $0
DATA lanes<>+88(SB)/8, $0
DATA lanes<>+96(SB)/8, $0
DATA lanes<>+104(SB)/8, $0
DATA lanes<>+112(SB)/8, $0
DATA lanes<>+120(SB)/8, $0
GLOBL lanes<>(SB), RODATA|NOPTR, $128

// func rowTaps32AVX2(y *float32, n int, srcs *unsafe.Pointer, ws *float32, taps int, stride int, bias float32)
// requires: AVX, AVX2, FMA3
//
// rowTaps32AVX512 on 8 lanes: the same sums in the same order (the bias,
// then one fused multiply-add per tap), so the same bits.
TEXT ·rowTaps32AVX2(SB), NOSPLIT, $0-52
	MOVQ y+0(FP), DI
	MOVQ n+8(FP), CX
	MOVQ srcs+16(FP), SI
	MOVQ ws+24(FP), DX
	MOVQ taps+32(FP), R8
	MOVQ stride+40(FP), R9
	VBROADCASTSS bias+48(FP), Y14
	LEAQ lanes<>(SB), R13
	XORQ R10, R10 // byte offset of the block in y
	XORQ R11, R11 // byte offset of the block in each tap's row
	CMPQ R9, $2
	JEQ  a2

a1loop:
	CMPQ CX, $8
	JLT  a1tail
	VMOVAPS Y14, Y0
	XORQ BX, BX

a1tap:
	MOVQ (SI)(BX*8), AX
	VBROADCASTSS (DX)(BX*4), Y1
	VFMADD231PS (AX)(R11*1), Y1, Y0
	INCQ BX
	CMPQ BX, R8
	JLT  a1tap
	VMOVUPS Y0, (DI)(R10*1)
	ADDQ $32, R10
	ADDQ $32, R11
	SUBQ $8, CX
	JMP  a1loop

a1tail:
	TESTQ CX, CX
	JEQ   adone
	// Y15: the mask of the CX (1..7) lanes left.
	MOVQ    $16, AX
	SUBQ    CX, AX
	VMOVDQU (R13)(AX*4), Y15
	VMOVAPS Y14, Y0
	XORQ BX, BX

a1ttap:
	MOVQ (SI)(BX*8), AX
	VBROADCASTSS (DX)(BX*4), Y1
	VMASKMOVPS (AX)(R11*1), Y15, Y2
	VFMADD231PS Y2, Y1, Y0
	INCQ BX
	CMPQ BX, R8
	JLT  a1ttap
	VMASKMOVPS Y0, Y15, (DI)(R10*1)
	JMP adone

	// Stride 2: output j reads element 2j of each tap's row; a block of 8
	// outputs reads 15 elements, two vectors' evens (VSHUFPS takes them
	// lane by lane, VPERMPD puts the 64-bit pairs in order).
a2:
a2loop:
	CMPQ CX, $9 // a full block reads element 15 too, which the 9th output's tap holds
	JLT  a2tail
	VMOVAPS Y14, Y0
	XORQ BX, BX

a2tap:
	MOVQ (SI)(BX*8), AX
	VBROADCASTSS (DX)(BX*4), Y1
	VMOVUPS (AX)(R11*1), Y2
	VMOVUPS 32(AX)(R11*1), Y3
	VSHUFPS $0x88, Y3, Y2, Y2
	VPERMPD $0xD8, Y2, Y2
	VFMADD231PS Y2, Y1, Y0
	INCQ BX
	CMPQ BX, R8
	JLT  a2tap
	VMOVUPS Y0, (DI)(R10*1)
	ADDQ $32, R10
	ADDQ $64, R11
	SUBQ $8, CX
	JMP  a2loop

a2tail:
	TESTQ CX, CX
	JEQ   adone
	// Y15: the outputs (CX of them, 1..8); Y12, Y13: the 2*CX-1 elements
	// read, 1..15, in two vectors.
	MOVQ    $16, AX
	SUBQ    CX, AX
	VMOVDQU (R13)(AX*4), Y15
	LEAQ    -1(CX)(CX*1), R12 // 2*CX-1
	MOVQ    R12, AX
	CMPQ    AX, $8
	JLE     a2m1
	MOVQ    $8, AX

a2m1:
	MOVQ    $16, BX
	SUBQ    AX, BX
	VMOVDQU (R13)(BX*4), Y12
	SUBQ    AX, R12 // what the second vector holds, 0..7
	MOVQ    $16, BX
	SUBQ    R12, BX
	VMOVDQU (R13)(BX*4), Y13
	VMOVAPS Y14, Y0
	XORQ BX, BX

a2ttap:
	MOVQ (SI)(BX*8), AX
	VBROADCASTSS (DX)(BX*4), Y1
	VMASKMOVPS (AX)(R11*1), Y12, Y2
	VMASKMOVPS 32(AX)(R11*1), Y13, Y3
	VSHUFPS $0x88, Y3, Y2, Y2
	VPERMPD $0xD8, Y2, Y2
	VFMADD231PS Y2, Y1, Y0
	INCQ BX
	CMPQ BX, R8
	JLT  a2ttap
	VMASKMOVPS Y0, Y15, (DI)(R10*1)

adone:
	VZEROUPPER
	RET
