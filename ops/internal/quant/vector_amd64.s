//go:build amd64 && !purego

#include "textflag.h"

// The AVX-512 loops of vector_amd64.go, sixteen elements a step over n
// elements (n a multiple of 16). Each lane does the operations of the Go
// loop in the same order, under the default rounding (to nearest, ties to
// even), so the bits are the same.

// func quantizeAVX512(o *byte, x *float32, n int, s float32, z, lo, hi int32)
//
// o[i] = byte(clamp(int32(round(x[i]/s)) + z, lo, hi)): VCVTPS2DQ rounds
// half to even and turns NaN and values outside int32 into MinInt32 (the
// "integer indefinite"), as quantizeOne does; the add wraps.
TEXT ·quantizeAVX512(SB), NOSPLIT, $0-40
	MOVQ         o+0(FP), DI
	MOVQ         x+8(FP), SI
	MOVQ         n+16(FP), CX
	VBROADCASTSS s+24(FP), Z1
	MOVL         z+28(FP), AX
	VPBROADCASTD AX, Z2
	MOVL         lo+32(FP), AX
	VPBROADCASTD AX, Z3
	MOVL         hi+36(FP), AX
	VPBROADCASTD AX, Z4

loop:
	CMPQ      CX, $32
	JB        one
	VMOVUPS   (SI), Z0
	VMOVUPS   64(SI), Z5
	VDIVPS    Z1, Z0, Z0
	VDIVPS    Z1, Z5, Z5
	VCVTPS2DQ Z0, Z0
	VCVTPS2DQ Z5, Z5
	VPADDD    Z2, Z0, Z0
	VPADDD    Z2, Z5, Z5
	VPMAXSD   Z3, Z0, Z0
	VPMAXSD   Z3, Z5, Z5
	VPMINSD   Z4, Z0, Z0
	VPMINSD   Z4, Z5, Z5
	VPMOVDB   Z0, (DI)
	VPMOVDB   Z5, 16(DI)
	ADDQ      $128, SI
	ADDQ      $32, DI
	SUBQ      $32, CX
	JMP       loop

one:
	CMPQ      CX, $16
	JB        done
	VMOVUPS   (SI), Z0
	VDIVPS    Z1, Z0, Z0
	VCVTPS2DQ Z0, Z0
	VPADDD    Z2, Z0, Z0
	VPMAXSD   Z3, Z0, Z0
	VPMINSD   Z4, Z0, Z0
	VPMOVDB   Z0, (DI)

done:
	VZEROUPPER
	RET

// func dequantizeU8AVX512(o *float32, x *byte, n int, s float32, z int32)
//
// o[i] = float32(int32(x[i]) - z) * s, x unsigned.
TEXT ·dequantizeU8AVX512(SB), NOSPLIT, $0-32
	MOVQ         o+0(FP), DI
	MOVQ         x+8(FP), SI
	MOVQ         n+16(FP), CX
	VBROADCASTSS s+24(FP), Z1
	MOVL         z+28(FP), AX
	VPBROADCASTD AX, Z2

uloop:
	CMPQ      CX, $16
	JB        udone
	VPMOVZXBD (SI), Z0
	VPSUBD    Z2, Z0, Z0
	VCVTDQ2PS Z0, Z0
	VMULPS    Z1, Z0, Z0
	VMOVUPS   Z0, (DI)
	ADDQ      $16, SI
	ADDQ      $64, DI
	SUBQ      $16, CX
	JMP       uloop

udone:
	VZEROUPPER
	RET

// func dequantizeS8AVX512(o *float32, x *byte, n int, s float32, z int32)
//
// dequantizeU8AVX512 for x signed.
TEXT ·dequantizeS8AVX512(SB), NOSPLIT, $0-32
	MOVQ         o+0(FP), DI
	MOVQ         x+8(FP), SI
	MOVQ         n+16(FP), CX
	VBROADCASTSS s+24(FP), Z1
	MOVL         z+28(FP), AX
	VPBROADCASTD AX, Z2

sloop:
	CMPQ      CX, $16
	JB        sdone
	VPMOVSXBD (SI), Z0
	VPSUBD    Z2, Z0, Z0
	VCVTDQ2PS Z0, Z0
	VMULPS    Z1, Z0, Z0
	VMOVUPS   Z0, (DI)
	ADDQ      $16, SI
	ADDQ      $64, DI
	SUBQ      $16, CX
	JMP       sloop

sdone:
	VZEROUPPER
	RET

// func requantAVX512(out *byte, acc *int32, n int, bias int32, mult, zero, lo, hi float64)
//
// out[i] = byte(int32(round(clamp(float64(acc[i]+bias)*mult + zero, lo, hi)))),
// the add of bias wrapping, the multiply and the add rounded apart (no
// fused multiply-add), VCVTPD2DQ rounding half to even. mult is finite,
// so nothing is NaN.
TEXT ·requantAVX512(SB), NOSPLIT, $0-64
	MOVQ         out+0(FP), DI
	MOVQ         acc+8(FP), SI
	MOVQ         n+16(FP), CX
	MOVL         bias+24(FP), AX
	VPBROADCASTD AX, Z5
	VBROADCASTSD mult+32(FP), Z1
	VBROADCASTSD zero+40(FP), Z2
	VBROADCASTSD lo+48(FP), Z3
	VBROADCASTSD hi+56(FP), Z4

rloop:
	CMPQ          CX, $16
	JB            rdone
	VPADDD        (SI), Z5, Z0
	VEXTRACTI64X4 $1, Z0, Y6
	VCVTDQ2PD     Y0, Z0
	VCVTDQ2PD     Y6, Z6
	VMULPD        Z1, Z0, Z0
	VMULPD        Z1, Z6, Z6
	VADDPD        Z2, Z0, Z0
	VADDPD        Z2, Z6, Z6
	VMAXPD        Z3, Z0, Z0
	VMAXPD        Z3, Z6, Z6
	VMINPD        Z4, Z0, Z0
	VMINPD        Z4, Z6, Z6
	VCVTPD2DQ     Z0, Y0
	VCVTPD2DQ     Z6, Y6
	VINSERTI64X4  $1, Y6, Z0, Z0
	VPMOVDB       Z0, (DI)
	ADDQ          $64, SI
	ADDQ          $16, DI
	SUBQ          $16, CX
	JMP           rloop

rdone:
	VZEROUPPER
	RET

// func requantColsAVX512(out *byte, acc *int32, mults *float64, n int, zero, lo, hi float64)
//
// requantAVX512 with no bias and one multiplier per element, mults[i].
TEXT ·requantColsAVX512(SB), NOSPLIT, $0-56
	MOVQ         out+0(FP), DI
	MOVQ         acc+8(FP), SI
	MOVQ         mults+16(FP), R8
	MOVQ         n+24(FP), CX
	VBROADCASTSD zero+32(FP), Z2
	VBROADCASTSD lo+40(FP), Z3
	VBROADCASTSD hi+48(FP), Z4

cloop:
	CMPQ          CX, $16
	JB            cdone
	VMOVDQU32     (SI), Z0
	VEXTRACTI64X4 $1, Z0, Y6
	VCVTDQ2PD     Y0, Z0
	VCVTDQ2PD     Y6, Z6
	VMULPD        (R8), Z0, Z0
	VMULPD        64(R8), Z6, Z6
	VADDPD        Z2, Z0, Z0
	VADDPD        Z2, Z6, Z6
	VMAXPD        Z3, Z0, Z0
	VMAXPD        Z3, Z6, Z6
	VMINPD        Z4, Z0, Z0
	VMINPD        Z4, Z6, Z6
	VCVTPD2DQ     Z0, Y0
	VCVTPD2DQ     Z6, Y6
	VINSERTI64X4  $1, Y6, Z0, Z0
	VPMOVDB       Z0, (DI)
	ADDQ          $64, SI
	ADDQ          $128, R8
	ADDQ          $16, DI
	SUBQ          $16, CX
	JMP           cloop

cdone:
	VZEROUPPER
	RET
