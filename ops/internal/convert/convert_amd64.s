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
