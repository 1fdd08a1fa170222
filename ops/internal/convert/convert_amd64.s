//go:build amd64 && !purego

#include "textflag.h"

// F16_LOOP rounds CX/16 blocks of sixteen float32 at SI to float16 at DI
// with F16C's VCVTPS2PH, round to nearest even (imm8 0): the IEEE rounding
// of f32ToF16, overflow to infinity and subnormals included, and NaN kept
// quiet with the top of its payload, as f32ToF16 spells it. STORE writes
// each eight results (VMOVDQU, or VMOVNTDQ for streaming stores).
#define F16_LOOP(STORE) \
	SHRQ      $4, CX \
loop: \
	TESTQ     CX, CX \
	JE        done \
	VMOVUPS   (SI), Y0 \
	VMOVUPS   32(SI), Y1 \
	VCVTPS2PH $0, Y0, X2 \
	VCVTPS2PH $0, Y1, X3 \
	STORE     X2, (DI) \
	STORE     X3, 16(DI) \
	ADDQ      $64, SI \
	ADDQ      $32, DI \
	DECQ      CX \
	JMP       loop \
done: \
	VZEROUPPER \
	RET

// func f32sToF16sF16C(d *uint16, s *uint32, n int)
//
// Rounds n float32 (n a multiple of 16) to float16, sixteen a loop.
TEXT ·f32sToF16sF16C(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
	F16_LOOP(VMOVDQU)

// func f32sToF16sF16CStream(d *uint16, s *uint32, n int)
//
// f32sToF16sF16C with streaming stores (d 16-byte aligned): an output too
// large for the cache is written without being read first. The caller
// fences.
TEXT ·f32sToF16sF16CStream(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
	F16_LOOP(VMOVNTDQ)

// func f16sToF32sF16C(d *uint32, s *uint16, n int)
//
// Widens n float16 (n a multiple of 16) to float32, sixteen a loop, with
// F16C's VCVTPH2PS, exact for every value. VCVTPH2PS quiets a signalling
// NaN (sets the float32 quiet bit 22); F16ToF32 keeps the payload as it
// is, so the loop clears bit 22 again where the float16 is a NaN (its
// magnitude above 0x7c00) whose own quiet bit 9 is clear (AVX2).
TEXT ·f16sToF32sF16C(SB), NOSPLIT, $0-24
	MOVQ         d+0(FP), DI
	MOVQ         s+8(FP), SI
	MOVQ         n+16(FP), CX
	SHRQ         $4, CX
	MOVL         $0x7fff, AX
	VMOVD        AX, X15
	VPBROADCASTD X15, Y15
	MOVL         $0x7c00, AX
	VMOVD        AX, X14
	VPBROADCASTD X14, Y14
	MOVL         $0x00400000, AX
	VMOVD        AX, X13
	VPBROADCASTD X13, Y13

widen:
	TESTQ     CX, CX
	JE        widened
	VCVTPH2PS (SI), Y0
	VCVTPH2PS 16(SI), Y4
	VPMOVZXWD (SI), Y1
	VPMOVZXWD 16(SI), Y5
	VPAND     Y15, Y1, Y2
	VPAND     Y15, Y5, Y6
	VPCMPGTD  Y14, Y2, Y2
	VPCMPGTD  Y14, Y6, Y6
	VPSLLD    $13, Y1, Y3
	VPSLLD    $13, Y5, Y7
	VPANDN    Y13, Y3, Y3
	VPANDN    Y13, Y7, Y7
	VPAND     Y2, Y3, Y3
	VPAND     Y6, Y7, Y7
	VPXOR     Y3, Y0, Y0
	VPXOR     Y7, Y4, Y4
	VMOVDQU   Y0, (DI)
	VMOVDQU   Y4, 32(DI)
	ADDQ      $32, SI
	ADDQ      $64, DI
	DECQ      CX
	JMP       widen

widened:
	VZEROUPPER
	RET
