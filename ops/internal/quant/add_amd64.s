//go:build amd64 && !purego

#include "textflag.h"

// func addAVX512(o, a, b *byte, n int, p *AddParams)
//
// o[i] = byte(round(clamp((sa*(a[i]-za) + sb*(b[i]-zb)) / sy, lo, hi)) + zy)
// for i in [0, n), n a multiple of 16 (add.go): the bytes widened to
// int32 (sign-extended when p.signed), less their zero points, to
// float64; each product, the sum and the quotient rounded apart (no fused
// multiply-add), VCVTPD2DQ rounding half to even. p's layout: sa, sb, sy,
// lo, hi float64 at 0..32, za, zb, zy, signed int32 at 40..52.
TEXT ·addAVX512(SB), NOSPLIT, $0-40
	MOVQ         o+0(FP), DI
	MOVQ         a+8(FP), SI
	MOVQ         b+16(FP), DX
	MOVQ         n+24(FP), CX
	MOVQ         p+32(FP), AX
	VBROADCASTSD 0(AX), Z10
	VBROADCASTSD 8(AX), Z11
	VBROADCASTSD 16(AX), Z12
	VBROADCASTSD 24(AX), Z13
	VBROADCASTSD 32(AX), Z14
	VPBROADCASTD 40(AX), Z15
	VPBROADCASTD 44(AX), Z16
	VPBROADCASTD 48(AX), Z17
	MOVL         52(AX), BX

loop:
	CMPQ      CX, $16
	JB        done
	TESTL     BX, BX
	JNE       signed
	VPMOVZXBD (SI), Z0
	VPMOVZXBD (DX), Z1
	JMP       both

signed:
	VPMOVSXBD (SI), Z0
	VPMOVSXBD (DX), Z1

both:
	VPSUBD        Z15, Z0, Z0
	VPSUBD        Z16, Z1, Z1
	VEXTRACTI64X4 $1, Z0, Y2
	VEXTRACTI64X4 $1, Z1, Y3
	VCVTDQ2PD     Y0, Z0
	VCVTDQ2PD     Y2, Z2
	VCVTDQ2PD     Y1, Z1
	VCVTDQ2PD     Y3, Z3
	VMULPD        Z10, Z0, Z0
	VMULPD        Z10, Z2, Z2
	VMULPD        Z11, Z1, Z1
	VMULPD        Z11, Z3, Z3
	VADDPD        Z1, Z0, Z0
	VADDPD        Z3, Z2, Z2
	VDIVPD        Z12, Z0, Z0
	VDIVPD        Z12, Z2, Z2
	VMAXPD        Z13, Z0, Z0
	VMAXPD        Z13, Z2, Z2
	VMINPD        Z14, Z0, Z0
	VMINPD        Z14, Z2, Z2
	VCVTPD2DQ     Z0, Y0
	VCVTPD2DQ     Z2, Y2
	VINSERTI64X4  $1, Y2, Z0, Z0
	VPADDD        Z17, Z0, Z0
	VPMOVDB       Z0, (DI)
	ADDQ          $16, SI
	ADDQ          $16, DX
	ADDQ          $16, DI
	SUBQ          $16, CX
	JMP           loop

done:
	VZEROUPPER
	RET
