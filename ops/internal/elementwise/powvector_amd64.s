//go:build amd64 && !purego

#include "textflag.h"

// func powCubeAVX(o, a *float32, n int, nan float32)
//
// o = float32((d*d)*d) for d = float64(a), eight elements a turn (n is a
// multiple of 8), and nan where a is a NaN: powCube's operations, each
// rounded as Go rounds them (the products in float64, x*x exact, one
// rounding to float32 at the end by VCVTPD2PS under the default MXCSR,
// as float32(d) does), so the same bits.
TEXT ·powCubeAVX(SB), NOSPLIT, $0-28
	MOVQ o+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS nan+24(FP), Y15
	SHRQ $3, CX
	JZ   done

loop:
	VMOVUPS (SI), Y0
	VCMPPS  $3, Y0, Y0, Y1 // unordered: the NaN lanes
	VCVTPS2PD X0, Y2
	VEXTRACTF128 $1, Y0, X3
	VCVTPS2PD X3, Y3
	VMULPD  Y2, Y2, Y4
	VMULPD  Y2, Y4, Y4
	VMULPD  Y3, Y3, Y5
	VMULPD  Y3, Y5, Y5
	VCVTPD2PSY Y4, X4
	VCVTPD2PSY Y5, X5
	VINSERTF128 $1, X5, Y4, Y4
	VBLENDVPS Y1, Y15, Y4, Y4
	VMOVUPS Y4, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  loop

done:
	VZEROUPPER
	RET

// func powSquareAVX(o, a *float32, n int, nan float32)
//
// o = x*x for x = a, eight elements a turn (n is a multiple of 8), and nan
// where a is a NaN: powSquare's operations, the one float32 product
// rounded by VMULPS under the default MXCSR as Go rounds x*x, so the same
// bits.
TEXT ·powSquareAVX(SB), NOSPLIT, $0-28
	MOVQ o+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS nan+24(FP), Y15
	SHRQ $3, CX
	JZ   sqdone

sqloop:
	VMOVUPS (SI), Y0
	VCMPPS  $3, Y0, Y0, Y1 // unordered: the NaN lanes
	VMULPS  Y0, Y0, Y2
	VBLENDVPS Y1, Y15, Y2, Y2
	VMOVUPS Y2, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  sqloop

sqdone:
	VZEROUPPER
	RET
