//go:build amd64 && !purego

#include "textflag.h"

// func f32sToF16sF16C(d *uint16, s *uint32, n int)
//
// Rounds n float32 (n a multiple of 16) to float16 with F16C's VCVTPS2PH,
// round to nearest even (imm8 0), sixteen a loop: the IEEE rounding of
// f32ToF16, overflow to infinity and subnormals included, and NaN kept
// quiet with the top of its payload, as f32ToF16 spells it.
TEXT ·f32sToF16sF16C(SB), NOSPLIT, $0-24
	MOVQ      d+0(FP), DI
	MOVQ      s+8(FP), SI
	MOVQ      n+16(FP), CX
	SHRQ      $4, CX

f16loop:
	TESTQ     CX, CX
	JE        f16done
	VMOVUPS   (SI), Y0
	VMOVUPS   32(SI), Y1
	VCVTPS2PH $0, Y0, X2
	VCVTPS2PH $0, Y1, X3
	VMOVDQU   X2, (DI)
	VMOVDQU   X3, 16(DI)
	ADDQ      $64, SI
	ADDQ      $32, DI
	DECQ      CX
	JMP       f16loop

f16done:
	VZEROUPPER
	RET

// func f32sToF16sF16CStream(d *uint16, s *uint32, n int)
//
// f32sToF16sF16C with streaming stores (d 16-byte aligned): an output too
// large for the cache is written without being read first. The caller
// fences.
TEXT ·f32sToF16sF16CStream(SB), NOSPLIT, $0-24
	MOVQ      d+0(FP), DI
	MOVQ      s+8(FP), SI
	MOVQ      n+16(FP), CX
	SHRQ      $4, CX

f16sloop:
	TESTQ     CX, CX
	JE        f16sdone
	VMOVUPS   (SI), Y0
	VMOVUPS   32(SI), Y1
	VCVTPS2PH $0, Y0, X2
	VCVTPS2PH $0, Y1, X3
	VMOVNTDQ  X2, (DI)
	VMOVNTDQ  X3, 16(DI)
	ADDQ      $64, SI
	ADDQ      $32, DI
	DECQ      CX
	JMP       f16sloop

f16sdone:
	VZEROUPPER
	RET
