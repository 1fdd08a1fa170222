//go:build amd64 && !purego

#include "textflag.h"

// func rangeAVX2(x *float32, n int, lo, hi *[8]float32) (finite bool)
//
// Scans n (a multiple of 16) float32 at x, two blocks of eight at a time
// in two sets of accumulators: lanes of the minimum and maximum (from 0)
// into lo and hi, and x-x summed, which stays +0 while every element is
// finite and turns NaN at the first NaN or infinity.
TEXT ·rangeAVX2(SB), NOSPLIT, $0-33
	MOVQ   x+0(FP), SI
	MOVQ   n+8(FP), CX
	XORQ   AX, AX
	VXORPS Y0, Y0, Y0 // min, set 1
	VXORPS Y1, Y1, Y1 // max, set 1
	VXORPS Y2, Y2, Y2 // finite, set 1
	VXORPS Y3, Y3, Y3 // min, set 2
	VXORPS Y4, Y4, Y4 // max, set 2
	VXORPS Y5, Y5, Y5 // finite, set 2

rloop:
	CMPQ    AX, CX
	JAE     rdone
	VMOVUPS (SI)(AX*4), Y6
	VMOVUPS 32(SI)(AX*4), Y7
	VMINPS  Y6, Y0, Y0
	VMAXPS  Y6, Y1, Y1
	VSUBPS  Y6, Y6, Y8
	VADDPS  Y8, Y2, Y2
	VMINPS  Y7, Y3, Y3
	VMAXPS  Y7, Y4, Y4
	VSUBPS  Y7, Y7, Y9
	VADDPS  Y9, Y5, Y5
	ADDQ    $16, AX
	JMP     rloop

rdone:
	VMINPS  Y3, Y0, Y0
	VMAXPS  Y4, Y1, Y1
	VADDPS  Y5, Y2, Y2
	MOVQ    lo+16(FP), DI
	VMOVUPS Y0, (DI)
	MOVQ    hi+24(FP), DI
	VMOVUPS Y1, (DI)
	VPTEST  Y2, Y2
	SETEQ   finite+32(FP)
	VZEROUPPER
	RET

// func quantizeAVX2(y *byte, x *float32, n int, scale, zero float32)
//
// Quantizes n (a multiple of 8) float32 at x into bytes at y, eight at a
// time, as quantizeGo does each: x/scale (VDIVPS), rounded to the nearest
// integer, ties to even (VROUNDPS mode 0), plus zero, clamped to [0, 255]
// (all in float32), then converted (exact: an integer in [0, 255]) and
// packed to bytes.
TEXT ·quantizeAVX2(SB), NOSPLIT, $0-32
	MOVQ         y+0(FP), DI
	MOVQ         x+8(FP), SI
	MOVQ         n+16(FP), CX
	VBROADCASTSS scale+24(FP), Y5
	VBROADCASTSS zero+28(FP), Y6
	VXORPS       Y7, Y7, Y7
	MOVL         $0x437f0000, DX // 255.0
	VMOVD        DX, X8
	VBROADCASTSS X8, Y8
	XORQ         AX, AX

qloop:
	CMPQ         AX, CX
	JAE          qdone
	VMOVUPS      (SI)(AX*4), Y0
	VDIVPS       Y5, Y0, Y0
	VROUNDPS     $0, Y0, Y0
	VADDPS       Y6, Y0, Y0
	VMAXPS       Y7, Y0, Y0
	VMINPS       Y8, Y0, Y0
	VCVTTPS2DQ   Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPACKUSDW    X1, X0, X0
	VPACKUSWB    X0, X0, X0
	VMOVQ        X0, (DI)(AX*1)
	ADDQ         $8, AX
	JMP          qloop

qdone:
	VZEROUPPER
	RET

// func quantizeAVX512(y *byte, x *float32, n int, scale, zero float32)
//
// quantizeAVX2 sixteen lanes at a time (n a multiple of 16): the same
// operations (VDIVPS, VRNDSCALEPS to nearest even, VADDPS, the clamp,
// VCVTTPS2DQ), then VPMOVDB (every lane already in [0, 255]).
TEXT ·quantizeAVX512(SB), NOSPLIT, $0-32
	MOVQ         y+0(FP), DI
	MOVQ         x+8(FP), SI
	MOVQ         n+16(FP), CX
	VBROADCASTSS scale+24(FP), Z5
	VBROADCASTSS zero+28(FP), Z6
	VPXORD       Z7, Z7, Z7
	MOVL         $0x437f0000, DX // 255.0
	VMOVD        DX, X8
	VBROADCASTSS X8, Z8
	XORQ         AX, AX

zloop:
	CMPQ          AX, CX
	JAE           zdone
	VMOVUPS       (SI)(AX*4), Z0
	VDIVPS        Z5, Z0, Z0
	VRNDSCALEPS   $0, Z0, Z0
	VADDPS        Z6, Z0, Z0
	VMAXPS        Z7, Z0, Z0
	VMINPS        Z8, Z0, Z0
	VCVTTPS2DQ    Z0, Z0
	VPMOVDB       Z0, (DI)(AX*1)
	ADDQ          $16, AX
	JMP           zloop

zdone:
	VZEROUPPER
	RET
