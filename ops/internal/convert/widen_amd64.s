//go:build amd64 && !purego

#include "textflag.h"

// The conversions between float32 and float64 and from int32 to int64,
// sixteen elements a step (n a multiple of 16). Each is the instruction Go
// compiles the element conversion to (CVTSS2SD, CVTSD2SS under the default
// rounding, MOVLQSX), four lanes at a time, so the bits are the same,
// NaN payloads included.

// func f32sToF64sAVX2(d, s unsafe.Pointer, n int)
TEXT ·f32sToF64sAVX2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $4, CX
	JZ   f32sToF64sdone

f32sToF64sloop:
	VCVTPS2PD 0(SI), Y0
	VCVTPS2PD 16(SI), Y1
	VCVTPS2PD 32(SI), Y2
	VCVTPS2PD 48(SI), Y3
	VMOVUPD   Y0, 0(DI)
	VMOVUPD   Y1, 32(DI)
	VMOVUPD   Y2, 64(DI)
	VMOVUPD   Y3, 96(DI)
	ADDQ      $64, SI
	ADDQ      $128, DI
	DECQ      CX
	JNZ       f32sToF64sloop

f32sToF64sdone:
	VZEROUPPER
	RET

// func f64sToF32sAVX2(d, s unsafe.Pointer, n int)
TEXT ·f64sToF32sAVX2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $4, CX
	JZ   f64sToF32sdone

f64sToF32sloop:
	VCVTPD2PSY 0(SI), X0
	VCVTPD2PSY 32(SI), X1
	VCVTPD2PSY 64(SI), X2
	VCVTPD2PSY 96(SI), X3
	VMOVUPS    X0, 0(DI)
	VMOVUPS    X1, 16(DI)
	VMOVUPS    X2, 32(DI)
	VMOVUPS    X3, 48(DI)
	ADDQ       $128, SI
	ADDQ       $64, DI
	DECQ       CX
	JNZ        f64sToF32sloop

f64sToF32sdone:
	VZEROUPPER
	RET

// func i32sToI64sAVX2(d, s unsafe.Pointer, n int)
TEXT ·i32sToI64sAVX2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $4, CX
	JZ   i32sToI64sdone

i32sToI64sloop:
	VPMOVSXDQ 0(SI), Y0
	VPMOVSXDQ 16(SI), Y1
	VPMOVSXDQ 32(SI), Y2
	VPMOVSXDQ 48(SI), Y3
	VMOVDQU   Y0, 0(DI)
	VMOVDQU   Y1, 32(DI)
	VMOVDQU   Y2, 64(DI)
	VMOVDQU   Y3, 96(DI)
	ADDQ      $64, SI
	ADDQ      $128, DI
	DECQ      CX
	JNZ       i32sToI64sloop

i32sToI64sdone:
	VZEROUPPER
	RET
