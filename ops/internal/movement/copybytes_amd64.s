//go:build amd64 && !purego

#include "textflag.h"

// GATHER_ROWS copies n rows of rowBytes bytes (a multiple of 32): row r of
// dst from row idx[r] of src, while the lines of row idx[r+16] are
// prefetched, so that a lookup of random rows (an embedding) waits for
// memory sixteen rows at once rather than one after the other. STORE
// writes each 32 bytes (VMOVDQU, or VMOVNTDQ for streaming stores).
#define GATHER_ROWS(STORE) \
	MOVQ    dst+0(FP), DI \
	MOVQ    src+8(FP), SI \
	MOVQ    idx+16(FP), BX \
	MOVQ    n+24(FP), CX \
	MOVQ    rowBytes+32(FP), DX \
	XORQ    R8, R8 \
growloop: \
	CMPQ    R8, CX \
	JGE     growdone \
	LEAQ    16(R8), R9 \
	CMPQ    R9, CX \
	JGE     gcopy \
	MOVQ    (BX)(R9*8), R10 \
	IMULQ   DX, R10 \
	ADDQ    SI, R10 \
	XORQ    R11, R11 \
gpref: \
	PREFETCHT0 (R10)(R11*1) \
	ADDQ    $64, R11 \
	CMPQ    R11, DX \
	JLT     gpref \
gcopy: \
	MOVQ    (BX)(R8*8), R10 \
	IMULQ   DX, R10 \
	ADDQ    SI, R10 \
	XORQ    R11, R11 \
gline: \
	VMOVDQU (R10)(R11*1), Y0 \
	STORE   Y0, (DI)(R11*1) \
	ADDQ    $32, R11 \
	CMPQ    R11, DX \
	JLT     gline \
	ADDQ    DX, DI \
	INCQ    R8 \
	JMP     growloop \
growdone: \
	VZEROUPPER \
	RET

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
TEXT ·StoreFence(SB), NOSPLIT, $0-0
	SFENCE
	RET

// func gatherRowsPrefetch(dst, src unsafe.Pointer, idx *int64, n, rowBytes int)
//
// GATHER_ROWS with plain stores.
TEXT ·gatherRowsPrefetch(SB), NOSPLIT, $0-40
	GATHER_ROWS(VMOVDQU)

// func gatherRowsStream(dst, src unsafe.Pointer, idx *int64, n, rowBytes int)
//
// GATHER_ROWS with streaming stores (dst 32-byte aligned): an output too
// large for the cache is written without being read first. The caller
// fences.
TEXT ·gatherRowsStream(SB), NOSPLIT, $0-40
	GATHER_ROWS(VMOVNTDQ)
