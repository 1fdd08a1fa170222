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

// func storeFence()
//
// SFENCE: the non-temporal stores before it are visible to every core
// before any store after it (the release that hands the output on).
TEXT ·storeFence(SB), NOSPLIT, $0-0
	SFENCE
	RET
