//go:build amd64 && !purego

#include "textflag.h"

// SPLAT loads the float32 at off(AX), a weight, into every lane of reg.
#define SPLAT(off, reg) MOVSS off(AX), reg; SHUFPS $0, reg, reg

// func combineTwoRows4(d0, d1, r0, r1 *float32, n int, w *[4]float32)
//
// d0[j] = w[0]*r0[j] + w[1]*r1[j] and d1[j] = w[2]*r0[j] + w[3]*r1[j] for
// j < n, n a positive multiple of 4, four at a time in SSE registers. Each
// product and the sum round to float32 as in Go's scalar code.
TEXT ·combineTwoRows4(SB), NOSPLIT, $0-48
	MOVQ   d0+0(FP), DI
	MOVQ   d1+8(FP), DX
	MOVQ   r0+16(FP), SI
	MOVQ   r1+24(FP), BX
	MOVQ   n+32(FP), CX
	MOVQ   w+40(FP), AX
	SPLAT(0, X4)
	SPLAT(4, X5)
	SPLAT(8, X6)
	SPLAT(12, X7)
	XORQ   R8, R8          // byte offset

loop:
	MOVUPS (SI)(R8*1), X0  // r0[j:j+4]
	MOVUPS (BX)(R8*1), X1  // r1[j:j+4]
	MOVAPS X0, X2
	MULPS  X4, X2
	MOVAPS X1, X3
	MULPS  X5, X3
	ADDPS  X3, X2
	MOVUPS X2, (DI)(R8*1)
	MULPS  X6, X0
	MULPS  X7, X1
	ADDPS  X1, X0
	MOVUPS X0, (DX)(R8*1)
	ADDQ   $16, R8
	SUBQ   $4, CX
	JNZ    loop
	RET

// func combineRows2(d, r0, r1 *float32, n int, w *[2]float32)
//
// d[j] = w[0]*r0[j] + w[1]*r1[j] for j < n, n a positive multiple of 4.
TEXT ·combineRows2(SB), NOSPLIT, $0-40
	MOVQ   d+0(FP), DI
	MOVQ   r0+8(FP), SI
	MOVQ   r1+16(FP), BX
	MOVQ   n+24(FP), CX
	MOVQ   w+32(FP), AX
	SPLAT(0, X4)
	SPLAT(4, X5)
	XORQ   R8, R8

loop2:
	MOVUPS (SI)(R8*1), X0
	MOVUPS (BX)(R8*1), X1
	MULPS  X4, X0
	MULPS  X5, X1
	ADDPS  X1, X0
	MOVUPS X0, (DI)(R8*1)
	ADDQ   $16, R8
	SUBQ   $4, CX
	JNZ    loop2
	RET

// func combineRows4(d, r0, r1, r2, r3 *float32, n int, w *[4]float32)
//
// d[j] = ((w[0]*r0[j] + w[1]*r1[j]) + w[2]*r2[j]) + w[3]*r3[j] for j < n,
// n a positive multiple of 4: the order in which Go adds the terms.
TEXT ·combineRows4(SB), NOSPLIT, $0-56
	MOVQ   d+0(FP), DI
	MOVQ   r0+8(FP), SI
	MOVQ   r1+16(FP), BX
	MOVQ   r2+24(FP), R9
	MOVQ   r3+32(FP), R10
	MOVQ   n+40(FP), CX
	MOVQ   w+48(FP), AX
	SPLAT(0, X4)
	SPLAT(4, X5)
	SPLAT(8, X6)
	SPLAT(12, X7)
	XORQ   R8, R8

loop4:
	MOVUPS (SI)(R8*1), X0
	MOVUPS (BX)(R8*1), X1
	MOVUPS (R9)(R8*1), X2
	MOVUPS (R10)(R8*1), X3
	MULPS  X4, X0
	MULPS  X5, X1
	ADDPS  X1, X0
	MULPS  X6, X2
	ADDPS  X2, X0
	MULPS  X7, X3
	ADDPS  X3, X0
	MOVUPS X0, (DI)(R8*1)
	ADDQ   $16, R8
	SUBQ   $4, CX
	JNZ    loop4
	RET

// func twoTapPairs4(d, s *float32, n int, w *[4]float32)
//
// d[2i] = w[0]*s[i] + w[1]*s[i+1] and d[2i+1] = w[2]*s[i] + w[3]*s[i+1] for
// i < n, n a positive multiple of 4 (a filter of two taps whose outputs come
// in pairs from each input, as linear Resize by 2 gives): s[i:i+4] and
// s[i+1:i+5] in two registers, the even and the odd outputs side by side,
// then interleaved. It reads s up to s[n]. Each product and the sum round
// to float32 as in Go's scalar code.
TEXT ·twoTapPairs4(SB), NOSPLIT, $0-32
	MOVQ     d+0(FP), DI
	MOVQ     s+8(FP), SI
	MOVQ     n+16(FP), CX
	MOVQ     w+24(FP), AX
	SPLAT(0, X4)
	SPLAT(4, X5)
	SPLAT(8, X6)
	SPLAT(12, X7)

pairs:
	MOVUPS   (SI), X0      // s[i:i+4]
	MOVUPS   4(SI), X1     // s[i+1:i+5]
	MOVAPS   X0, X2
	MOVAPS   X1, X3
	MULPS    X4, X0
	MULPS    X5, X1
	ADDPS    X1, X0        // the even outputs
	MULPS    X6, X2
	MULPS    X7, X3
	ADDPS    X3, X2        // the odd outputs
	MOVAPS   X0, X1
	UNPCKLPS X2, X0        // d[2i] d[2i+1] d[2i+2] d[2i+3]
	UNPCKHPS X2, X1        // d[2i+4] ... d[2i+7]
	MOVUPS   X0, (DI)
	MOVUPS   X1, 16(DI)
	ADDQ     $16, SI
	ADDQ     $32, DI
	SUBQ     $4, CX
	JNZ      pairs
	RET

// func fourTapsStep2x4(d, s *float32, n int, w *[4]float32)
//
// d[i] = ((w[0]*s[2i] + w[1]*s[2i+1]) + w[2]*s[2i+2]) + w[3]*s[2i+3] for
// i < n, n a positive multiple of 4 (a filter of four taps at a step of
// two inputs, as linear antialiased Resize by 1/2 gives): the even and odd
// inputs of four outputs split by shuffles, then the four terms in Go's
// order. It reads s up to s[2n+1]. Each product and sum rounds to float32
// as in Go's scalar code.
TEXT ·fourTapsStep2x4(SB), NOSPLIT, $0-32
	MOVQ   d+0(FP), DI
	MOVQ   s+8(FP), SI
	MOVQ   n+16(FP), CX
	MOVQ   w+24(FP), AX
	SPLAT(0, X8)
	SPLAT(4, X9)
	SPLAT(8, X10)
	SPLAT(12, X11)

taps:
	MOVUPS (SI), X0        // s0 s1 s2 s3
	MOVUPS 16(SI), X1      // s4 s5 s6 s7
	MOVUPS 8(SI), X2       // s2 s3 s4 s5
	MOVUPS 24(SI), X3      // s6 s7 s8 s9
	MOVAPS X0, X4
	SHUFPS $0x88, X1, X0   // s0 s2 s4 s6
	SHUFPS $0xDD, X1, X4   // s1 s3 s5 s7
	MOVAPS X2, X5
	SHUFPS $0x88, X3, X2   // s2 s4 s6 s8
	SHUFPS $0xDD, X3, X5   // s3 s5 s7 s9
	MULPS  X8, X0
	MULPS  X9, X4
	ADDPS  X4, X0
	MULPS  X10, X2
	ADDPS  X2, X0
	MULPS  X11, X5
	ADDPS  X5, X0
	MOVUPS X0, (DI)
	ADDQ   $32, SI
	ADDQ   $16, DI
	SUBQ   $4, CX
	JNZ    taps
	RET
