//go:build amd64 && !purego

#include "textflag.h"

// func f32sToI32sAVX2(d *uint32, s *float32, n int) int
//
// Truncates n (a multiple of 8) float32 at s toward zero into int32 at d,
// eight at a time with VCVTTPS2DQ, and stops before the first block of
// eight in which a lane gave 0x80000000, x86's "indefinite" (NaN, out of
// range, or exactly -2^31): the caller converts that block one element at a
// time with floatToInt's rules. It returns how many elements it wrote.
TEXT ·f32sToI32sAVX2(SB), NOSPLIT, $0-32
	MOVQ     d+0(FP), DI
	MOVQ     s+8(FP), SI
	MOVQ     n+16(FP), CX
	XORQ     AX, AX
	VPCMPEQD Y3, Y3, Y3
	VPSLLD   $31, Y3, Y3

loop:
	CMPQ       AX, CX
	JAE        done
	VCVTTPS2DQ (SI)(AX*4), Y0
	VPCMPEQD   Y3, Y0, Y1
	VPTEST     Y1, Y1
	JNZ        done
	VMOVDQU    Y0, (DI)(AX*4)
	ADDQ       $8, AX
	JMP        loop

done:
	VZEROUPPER
	MOVQ AX, ret+24(FP)
	RET

// func f32sToI16sAVX2(d *uint16, s *float32, n int) int
//
// f32sToI32sAVX2 narrowed to the low 16 bits of each int32 (Int16 and
// Uint16): the masked values fit VPACKUSDW's unsigned saturation, so it
// packs them unchanged.
TEXT ·f32sToI16sAVX2(SB), NOSPLIT, $0-32
	MOVQ     d+0(FP), DI
	MOVQ     s+8(FP), SI
	MOVQ     n+16(FP), CX
	XORQ     AX, AX
	VPCMPEQD Y3, Y3, Y3
	VPSLLD   $31, Y3, Y3
	VPCMPEQD Y4, Y4, Y4
	VPSRLD   $16, Y4, Y4

loop16:
	CMPQ         AX, CX
	JAE          done16
	VCVTTPS2DQ   (SI)(AX*4), Y0
	VPCMPEQD     Y3, Y0, Y1
	VPTEST       Y1, Y1
	JNZ          done16
	VPAND        Y4, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPACKUSDW    X1, X0, X0
	VMOVDQU      X0, (DI)(AX*2)
	ADDQ         $8, AX
	JMP          loop16

done16:
	VZEROUPPER
	MOVQ AX, ret+24(FP)
	RET

// func f32sToI8sAVX2(d *uint8, s *float32, n int) int
//
// f32sToI32sAVX2 narrowed to the low 8 bits of each int32 (Int8 and
// Uint8), packed unchanged as in f32sToI16sAVX2.
TEXT ·f32sToI8sAVX2(SB), NOSPLIT, $0-32
	MOVQ     d+0(FP), DI
	MOVQ     s+8(FP), SI
	MOVQ     n+16(FP), CX
	XORQ     AX, AX
	VPCMPEQD Y3, Y3, Y3
	VPSLLD   $31, Y3, Y3
	VPCMPEQD Y4, Y4, Y4
	VPSRLD   $24, Y4, Y4

loop8:
	CMPQ         AX, CX
	JAE          done8
	VCVTTPS2DQ   (SI)(AX*4), Y0
	VPCMPEQD     Y3, Y0, Y1
	VPTEST       Y1, Y1
	JNZ          done8
	VPAND        Y4, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPACKUSDW    X1, X0, X0
	VPACKUSWB    X0, X0, X0
	VMOVQ        X0, (DI)(AX*1)
	ADDQ         $8, AX
	JMP          loop8

done8:
	VZEROUPPER
	MOVQ AX, ret+24(FP)
	RET

// func f32sToI32sAVX512(d *uint32, s *float32, n int) int
//
// f32sToI32sAVX2 sixteen at a time: n is a multiple of 16, and it stops
// before the first block of sixteen that holds an "indefinite" lane.
TEXT ·f32sToI32sAVX512(SB), NOSPLIT, $0-32
	MOVQ         d+0(FP), DI
	MOVQ         s+8(FP), SI
	MOVQ         n+16(FP), CX
	XORQ         AX, AX
	MOVL         $0x80000000, DX
	VPBROADCASTD DX, Z3

loop512:
	CMPQ       AX, CX
	JAE        done512
	VCVTTPS2DQ (SI)(AX*4), Z0
	VPCMPEQD   Z3, Z0, K1
	KORTESTW   K1, K1
	JNZ        done512
	VMOVDQU32  Z0, (DI)(AX*4)
	ADDQ       $16, AX
	JMP        loop512

done512:
	VZEROUPPER
	MOVQ AX, ret+24(FP)
	RET

// func f32sToI16sAVX512(d *uint16, s *float32, n int) int
//
// f32sToI32sAVX512 narrowed to the low 16 bits of each int32 by VPMOVDW
// (truncation, the same bits as the AVX2 loop's mask and pack).
TEXT ·f32sToI16sAVX512(SB), NOSPLIT, $0-32
	MOVQ         d+0(FP), DI
	MOVQ         s+8(FP), SI
	MOVQ         n+16(FP), CX
	XORQ         AX, AX
	MOVL         $0x80000000, DX
	VPBROADCASTD DX, Z3

loop16x512:
	CMPQ       AX, CX
	JAE        done16x512
	VCVTTPS2DQ (SI)(AX*4), Z0
	VPCMPEQD   Z3, Z0, K1
	KORTESTW   K1, K1
	JNZ        done16x512
	VPMOVDW    Z0, (DI)(AX*2)
	ADDQ       $16, AX
	JMP        loop16x512

done16x512:
	VZEROUPPER
	MOVQ AX, ret+24(FP)
	RET

// func f32sToI8sAVX512(d *uint8, s *float32, n int) int
//
// f32sToI32sAVX512 narrowed to the low 8 bits of each int32 by VPMOVDB.
TEXT ·f32sToI8sAVX512(SB), NOSPLIT, $0-32
	MOVQ         d+0(FP), DI
	MOVQ         s+8(FP), SI
	MOVQ         n+16(FP), CX
	XORQ         AX, AX
	MOVL         $0x80000000, DX
	VPBROADCASTD DX, Z3

loop8x512:
	CMPQ       AX, CX
	JAE        done8x512
	VCVTTPS2DQ (SI)(AX*4), Z0
	VPCMPEQD   Z3, Z0, K1
	KORTESTW   K1, K1
	JNZ        done8x512
	VPMOVDB    Z0, (DI)(AX*1)
	ADDQ       $16, AX
	JMP        loop8x512

done8x512:
	VZEROUPPER
	MOVQ AX, ret+24(FP)
	RET
