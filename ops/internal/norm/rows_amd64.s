//go:build amd64 && !purego

#include "textflag.h"

// func lanesF32AVX512(x *float32, n int, m float64, mode int, p *[16]float64)
//
// Adds, for the n float32 of x (n a multiple of 16), float64(x[k]) (mode
// 1: d*d for d = float64(x[k]) - m, the product rounded before the
// addition; mode 2: |float64(x[k])|) to p[k%16], in order: lanes 0-7 in
// Z0, 8-15 in Z1, each operation the one sum, sumSquaresAbout and sumAbs
// do in float64.
TEXT ·lanesF32AVX512(SB), NOSPLIT, $0-40
	MOVQ         x+0(FP), SI
	MOVQ         n+8(FP), CX
	VBROADCASTSD m+16(FP), Z4
	MOVQ         mode+24(FP), BX
	MOVQ         p+32(FP), DI
	VMOVUPD      (DI), Z0
	VMOVUPD      64(DI), Z1
	SHRQ         $4, CX
	TESTQ        CX, CX
	JZ           lanesdone
	CMPQ         BX, $1
	JEQ          squares
	CMPQ         BX, $2
	JEQ          absolutes

sums:
	VCVTPS2PD (SI), Z2
	VCVTPS2PD 32(SI), Z3
	VADDPD    Z2, Z0, Z0
	VADDPD    Z3, Z1, Z1
	ADDQ      $64, SI
	DECQ      CX
	JNZ       sums
	JMP       lanesdone

squares:
	VCVTPS2PD (SI), Z2
	VCVTPS2PD 32(SI), Z3
	VSUBPD    Z4, Z2, Z2
	VSUBPD    Z4, Z3, Z3
	VMULPD    Z2, Z2, Z2
	VMULPD    Z3, Z3, Z3
	VADDPD    Z2, Z0, Z0
	VADDPD    Z3, Z1, Z1
	ADDQ      $64, SI
	DECQ      CX
	JNZ       squares
	JMP       lanesdone

absolutes:
	MOVQ         $0x7fffffffffffffff, R8
	VPBROADCASTQ R8, Z5

absloop:
	VCVTPS2PD (SI), Z2
	VCVTPS2PD 32(SI), Z3
	VPANDQ    Z5, Z2, Z2
	VPANDQ    Z5, Z3, Z3
	VADDPD    Z2, Z0, Z0
	VADDPD    Z3, Z1, Z1
	ADDQ      $64, SI
	DECQ      CX
	JNZ       absloop

lanesdone:
	VMOVUPD Z0, (DI)
	VMOVUPD Z1, 64(DI)
	VZEROUPPER
	RET

// func writeF32AVX512(x, y *float32, n int, mean, f float64, sc, b *float64, flags int)
//
// y[j] = float32(r) for j < n (a multiple of 8), r = (float64(x[j]) -
// mean) * f (divided by f with bit 3 of flags), then r*sc and r+b where flags has bit 0 (scale) and bit 1
// (bias): sc[j] and b[j] with bit 2 (per element), else *sc and *b for
// every j. Each step rounded in float64, as writeRow and writeUniform do.
TEXT ·writeF32AVX512(SB), NOSPLIT, $0-64
	MOVQ         x+0(FP), SI
	MOVQ         y+8(FP), DI
	MOVQ         n+16(FP), CX
	VBROADCASTSD mean+24(FP), Z4
	VBROADCASTSD f+32(FP), Z5
	MOVQ         sc+40(FP), R8
	MOVQ         b+48(FP), R9
	MOVQ         flags+56(FP), BX
	XORQ         AX, AX
	TESTQ        $4, BX
	JNZ          perelement
	TESTQ        $1, BX
	JZ           2(PC)
	VBROADCASTSD (R8), Z6
	TESTQ        $2, BX
	JZ           2(PC)
	VBROADCASTSD (R9), Z7

uniform:
	CMPQ      AX, CX
	JAE       writedone
	VCVTPS2PD (SI)(AX*4), Z2
	VSUBPD    Z4, Z2, Z2
	TESTQ     $8, BX
	JNZ       3(PC)
	VMULPD    Z5, Z2, Z2
	JMP       2(PC)
	VDIVPD    Z5, Z2, Z2
	TESTQ     $1, BX
	JZ        2(PC)
	VMULPD    Z6, Z2, Z2
	TESTQ     $2, BX
	JZ        2(PC)
	VADDPD    Z7, Z2, Z2
	VCVTPD2PS Z2, Y3
	VMOVUPS   Y3, (DI)(AX*4)
	ADDQ      $8, AX
	JMP       uniform

perelement:
	CMPQ      AX, CX
	JAE       writedone
	VCVTPS2PD (SI)(AX*4), Z2
	VSUBPD    Z4, Z2, Z2
	VMULPD    Z5, Z2, Z2
	TESTQ     $1, BX
	JZ        2(PC)
	VMULPD    (R8)(AX*8), Z2, Z2
	TESTQ     $2, BX
	JZ        2(PC)
	VADDPD    (R9)(AX*8), Z2, Z2
	VCVTPD2PS Z2, Y3
	VMOVUPS   Y3, (DI)(AX*4)
	ADDQ      $8, AX
	JMP       perelement

writedone:
	VZEROUPPER
	RET
