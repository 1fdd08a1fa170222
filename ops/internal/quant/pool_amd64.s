//go:build amd64 && !purego

#include "textflag.h"

// func maxIntoAVX512(dst, src *byte, n int, signed bool)
//
// dst[i] = max(dst[i], src[i]) for i in [0, n), n a multiple of 64
// (VPMAXSB when signed, else VPMAXUB).
TEXT ·maxIntoAVX512(SB), NOSPLIT, $0-25
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVB signed+24(FP), BX

loop:
	CMPQ      CX, $64
	JB        done
	VMOVDQU64 (DI), Z0
	TESTB     BX, BX
	JNE       s
	VPMAXUB   (SI), Z0, Z0
	JMP       store

s:
	VPMAXSB (SI), Z0, Z0

store:
	VMOVDQU64 Z0, (DI)
	ADDQ      $64, DI
	ADDQ      $64, SI
	SUBQ      $64, CX
	JMP       loop

done:
	VZEROUPPER
	RET

// func maxWindowsAVX512(dst, src *byte, n, taps, dil, stride int, signed bool)
//
// dst[j] = max over q in [0, taps) of src[j*stride + q*dil] for j in
// [0, n), n a multiple of 32, stride 1 or 2: per 32 windows, the maximum
// of taps loads of 32 bytes (stride 1) or 64 bytes whose even bytes are
// the windows' (stride 2: VPMOVWB keeps each word's low byte).
TEXT ·maxWindowsAVX512(SB), NOSPLIT, $0-49
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ taps+24(FP), R8
	MOVQ dil+32(FP), R9
	MOVQ stride+40(FP), R10
	MOVB signed+48(FP), BX

chunk:
	CMPQ      CX, $32
	JB        wdone
	VMOVDQU64 (SI), Z0
	MOVQ      SI, DX
	MOVQ      R8, R11

tap:
	DECQ  R11
	JE    tapsdone
	ADDQ  R9, DX
	TESTB BX, BX
	JNE   ts
	VPMAXUB (DX), Z0, Z0
	JMP   tap

ts:
	VPMAXSB (DX), Z0, Z0
	JMP     tap

tapsdone:
	CMPQ    R10, $2
	JE      even
	VMOVDQU Y0, (DI)
	ADDQ    $32, SI
	JMP     next

even:
	VPMOVWB Z0, (DI)
	ADDQ    $64, SI

next:
	ADDQ $32, DI
	SUBQ $32, CX
	JMP  chunk

wdone:
	VZEROUPPER
	RET
