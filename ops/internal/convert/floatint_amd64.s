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
