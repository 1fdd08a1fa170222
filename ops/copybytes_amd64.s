//go:build amd64 && !purego

#include "textflag.h"

// func repMovsb(dst, src unsafe.Pointer, n uintptr)
//
// Copies n bytes forward with REP MOVSB, which processors with ERMS
// (enhanced REP MOVSB) run as whole cache lines.
TEXT ·repMovsb(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	CLD
	REP; MOVSB
	RET

// func streamCopy16(dst, src unsafe.Pointer, n uintptr)
//
// Copies n bytes, a positive multiple of 16, to dst, a multiple of 16, with
// non-temporal stores: 64 bytes a turn, then 16. The caller runs
// storeFence before the bytes are read by anyone else.
TEXT ·streamCopy16(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	CMPQ CX, $64
	JB   tail16

loop64:
	MOVOU  (SI), X0
	MOVOU  16(SI), X1
	MOVOU  32(SI), X2
	MOVOU  48(SI), X3
	MOVNTO X0, (DI)
	MOVNTO X1, 16(DI)
	MOVNTO X2, 32(DI)
	MOVNTO X3, 48(DI)
	ADDQ   $64, SI
	ADDQ   $64, DI
	SUBQ   $64, CX
	CMPQ   CX, $64
	JAE    loop64
	TESTQ  CX, CX
	JZ     done

tail16:
	MOVOU  (SI), X0
	MOVNTO X0, (DI)
	ADDQ   $16, SI
	ADDQ   $16, DI
	SUBQ   $16, CX
	JNZ    tail16

done:
	RET

// func storeFence()
//
// SFENCE: the non-temporal stores before it are visible to every core
// before any store after it (the release that hands the output on).
TEXT ·storeFence(SB), NOSPLIT, $0-0
	SFENCE
	RET
