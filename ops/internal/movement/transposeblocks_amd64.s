//go:build amd64 && !purego

#include "textflag.h"

// The kernels below share two arguments. pf is the distance in bytes from
// each source address to one the tile loop reads soon, prefetched as the
// block is loaded (0 prefetches the block's own lines, which costs nothing).
// stream selects non-temporal stores (MOVNTO), which write whole lines
// without first reading them into the cache: the destination and dRow are
// then multiples of 16, and the caller runs storeFence before the output is
// read by anyone else.

// func transpose4x4(dst, src unsafe.Pointer, dRow, sRow uintptr, nj, ni int, pf uintptr, stream bool)
//
// For each block of rows j..j+3 of dst (columns i..i+3): load rows i..i+3
// of src at column j (16 bytes each), transpose the 4x4 block of 32-bit
// elements in registers, store it as rows j..j+3 of dst at column i.
TEXT ·transpose4x4(SB), NOSPLIT, $0-57
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ dRow+16(FP), R10
	MOVQ sRow+24(FP), R8
	MOVQ nj+32(FP), R12
	MOVQ ni+40(FP), R13
	MOVQ pf+48(FP), DX
	LEAQ (R8)(R8*2), R9    // 3 src rows
	LEAQ (R10)(R10*2), R11 // 3 dst rows

rows4:
	MOVQ SI, AX  // src row i, column j
	MOVQ DI, BX  // dst row j, column i
	MOVQ R13, CX

block4:
	LEAQ       (AX)(DX*1), R14
	PREFETCHT0 (R14)
	PREFETCHT0 (R14)(R8*1)
	PREFETCHT0 (R14)(R8*2)
	PREFETCHT0 (R14)(R9*1)
	MOVOU (AX), X0         // a0 a1 a2 a3   (src row i)
	MOVOU (AX)(R8*1), X1   // b0 b1 b2 b3   (row i+1)
	MOVOU (AX)(R8*2), X2   // c0 c1 c2 c3
	MOVOU (AX)(R9*1), X3   // d0 d1 d2 d3
	MOVO  X0, X4
	PUNPCKLLQ X1, X0       // a0 b0 a1 b1
	PUNPCKHLQ X1, X4       // a2 b2 a3 b3
	MOVO  X2, X5
	PUNPCKLLQ X3, X2       // c0 d0 c1 d1
	PUNPCKHLQ X3, X5       // c2 d2 c3 d3
	MOVO  X0, X1
	PUNPCKLQDQ X2, X0      // a0 b0 c0 d0   (dst row j)
	PUNPCKHQDQ X2, X1      // a1 b1 c1 d1
	MOVO  X4, X3
	PUNPCKLQDQ X5, X4      // a2 b2 c2 d2
	PUNPCKHQDQ X5, X3      // a3 b3 c3 d3
	CMPB  stream+56(FP), $0
	JNE   stream4
	MOVOU X0, (BX)
	MOVOU X1, (BX)(R10*1)
	MOVOU X4, (BX)(R10*2)
	MOVOU X3, (BX)(R11*1)
	JMP   next4

stream4:
	MOVNTO X0, (BX)
	MOVNTO X1, (BX)(R10*1)
	MOVNTO X4, (BX)(R10*2)
	MOVNTO X3, (BX)(R11*1)

next4:
	LEAQ  (AX)(R8*4), AX   // 4 src rows on
	ADDQ  $16, BX          // 4 dst columns on
	SUBQ  $4, CX
	JNZ   block4

	ADDQ $16, SI           // 4 src columns on
	LEAQ (DI)(R10*4), DI   // 4 dst rows on
	SUBQ $4, R12
	JNZ  rows4
	RET

// func transpose2x2(dst, src unsafe.Pointer, dRow, sRow uintptr, nj, ni int, pf uintptr, stream bool)
//
// The same with 2x2 blocks of 64-bit elements.
TEXT ·transpose2x2(SB), NOSPLIT, $0-57
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ dRow+16(FP), R10
	MOVQ sRow+24(FP), R8
	MOVQ nj+32(FP), R12
	MOVQ ni+40(FP), R13
	MOVQ pf+48(FP), DX

rows2:
	MOVQ SI, AX
	MOVQ DI, BX
	MOVQ R13, CX

block2:
	LEAQ       (AX)(DX*1), R14
	PREFETCHT0 (R14)
	PREFETCHT0 (R14)(R8*1)
	MOVOU (AX), X0         // a0 a1
	MOVOU (AX)(R8*1), X1   // b0 b1
	MOVO  X0, X2
	PUNPCKLQDQ X1, X0      // a0 b0
	PUNPCKHQDQ X1, X2      // a1 b1
	CMPB  stream+56(FP), $0
	JNE   stream2
	MOVOU X0, (BX)
	MOVOU X2, (BX)(R10*1)
	JMP   next2

stream2:
	MOVNTO X0, (BX)
	MOVNTO X2, (BX)(R10*1)

next2:
	LEAQ  (AX)(R8*2), AX
	ADDQ  $16, BX
	SUBQ  $2, CX
	JNZ   block2

	ADDQ $16, SI
	LEAQ (DI)(R10*2), DI
	SUBQ $2, R12
	JNZ  rows2
	RET

// func transpose8x8(dst, src unsafe.Pointer, dRow, sRow uintptr, nj, ni int, pf uintptr, stream bool)
//
// The same with 8x8 blocks of 16-bit elements: eight source rows (a..h) of
// 16 bytes, interleaved by words, then doublewords, then quadwords.
TEXT ·transpose8x8(SB), NOSPLIT, $0-57
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ dRow+16(FP), R10
	MOVQ sRow+24(FP), R8
	MOVQ nj+32(FP), R12
	MOVQ ni+40(FP), R13
	MOVQ pf+48(FP), R14
	LEAQ (R8)(R8*2), R9    // 3 src rows
	LEAQ (R10)(R10*2), R11 // 3 dst rows

rows8:
	MOVQ SI, AX
	MOVQ DI, BX
	MOVQ R13, CX

block8:
	LEAQ       (AX)(R14*1), DX
	PREFETCHT0 (DX)
	PREFETCHT0 (DX)(R8*1)
	PREFETCHT0 (DX)(R8*2)
	PREFETCHT0 (DX)(R9*1)
	LEAQ       (DX)(R8*4), DX
	PREFETCHT0 (DX)
	PREFETCHT0 (DX)(R8*1)
	PREFETCHT0 (DX)(R8*2)
	PREFETCHT0 (DX)(R9*1)
	LEAQ  (AX)(R8*4), DX   // src row i+4
	MOVOU (AX), X0         // a0..a7
	MOVOU (AX)(R8*1), X1   // b
	MOVOU (AX)(R8*2), X2   // c
	MOVOU (AX)(R9*1), X3   // d
	MOVOU (DX), X4         // e
	MOVOU (DX)(R8*1), X5   // f
	MOVOU (DX)(R8*2), X6   // g
	MOVOU (DX)(R9*1), X7   // h
	// Words: X0 a0b0..a3b3, X8 a4b4..a7b7, X2/X9 c,d, X4/X10 e,f, X6/X11 g,h.
	MOVO  X0, X8
	PUNPCKLWL X1, X0
	PUNPCKHWL X1, X8
	MOVO  X2, X9
	PUNPCKLWL X3, X2
	PUNPCKHWL X3, X9
	MOVO  X4, X10
	PUNPCKLWL X5, X4
	PUNPCKHWL X5, X10
	MOVO  X6, X11
	PUNPCKLWL X7, X6
	PUNPCKHWL X7, X11
	// Doublewords: X0 a0b0c0d0 a1b1c1d1, X1 columns 2-3, X8 4-5, X3 6-7,
	// and X4, X5, X10, X7 the same of e..h.
	MOVO  X0, X1
	PUNPCKLLQ X2, X0
	PUNPCKHLQ X2, X1
	MOVO  X8, X3
	PUNPCKLLQ X9, X8
	PUNPCKHLQ X9, X3
	MOVO  X4, X5
	PUNPCKLLQ X6, X4
	PUNPCKHLQ X6, X5
	MOVO  X10, X7
	PUNPCKLLQ X11, X10
	PUNPCKHLQ X11, X7
	// Quadwords: column k of the block, a..h, is one register.
	MOVO  X0, X2
	PUNPCKLQDQ X4, X0      // column 0
	PUNPCKHQDQ X4, X2      // column 1
	MOVO  X1, X6
	PUNPCKLQDQ X5, X1      // column 2
	PUNPCKHQDQ X5, X6      // column 3
	MOVO  X8, X9
	PUNPCKLQDQ X10, X8     // column 4
	PUNPCKHQDQ X10, X9     // column 5
	MOVO  X3, X11
	PUNPCKLQDQ X7, X3      // column 6
	PUNPCKHQDQ X7, X11     // column 7
	LEAQ  (BX)(R10*4), DX  // dst row j+4
	CMPB  stream+56(FP), $0
	JNE   stream8
	MOVOU X0, (BX)
	MOVOU X2, (BX)(R10*1)
	MOVOU X1, (BX)(R10*2)
	MOVOU X6, (BX)(R11*1)
	MOVOU X8, (DX)
	MOVOU X9, (DX)(R10*1)
	MOVOU X3, (DX)(R10*2)
	MOVOU X11, (DX)(R11*1)
	JMP   next8

stream8:
	MOVNTO X0, (BX)
	MOVNTO X2, (BX)(R10*1)
	MOVNTO X1, (BX)(R10*2)
	MOVNTO X6, (BX)(R11*1)
	MOVNTO X8, (DX)
	MOVNTO X9, (DX)(R10*1)
	MOVNTO X3, (DX)(R10*2)
	MOVNTO X11, (DX)(R11*1)

next8:
	LEAQ  (AX)(R8*8), AX   // 8 src rows on
	ADDQ  $16, BX          // 8 dst columns on
	SUBQ  $8, CX
	JNZ   block8

	ADDQ $16, SI           // 8 src columns on
	LEAQ (DI)(R10*8), DI   // 8 dst rows on
	SUBQ $8, R12
	JNZ  rows8
	RET

// func deinterleave2x4(d0, d1, src unsafe.Pointer, n int, stream bool)
//
// Splits n pairs of 4-byte elements (a0 b0 a1 b1 ...) at src into
// a0 a1 ... at d0 and b0 b1 ... at d1, n a positive multiple of 4: two
// 16-byte loads, two shuffles and two 16-byte stores per 4 pairs; with
// stream, non-temporal stores to d0 and d1, multiples of 16.
TEXT ·deinterleave2x4(SB), NOSPLIT, $0-33
	MOVQ   d0+0(FP), DI
	MOVQ   d1+8(FP), DX
	MOVQ   src+16(FP), SI
	MOVQ   n+24(FP), CX

pairs:
	MOVUPS (SI), X0        // a0 b0 a1 b1
	MOVUPS 16(SI), X1      // a2 b2 a3 b3
	MOVAPS X0, X2
	SHUFPS $0x88, X1, X0   // a0 a1 a2 a3
	SHUFPS $0xDD, X1, X2   // b0 b1 b2 b3
	CMPB   stream+32(FP), $0
	JNE    streampairs
	MOVUPS X0, (DI)
	MOVUPS X2, (DX)
	JMP    nextpairs

streampairs:
	MOVNTO X0, (DI)
	MOVNTO X2, (DX)

nextpairs:
	ADDQ   $32, SI
	ADDQ   $16, DI
	ADDQ   $16, DX
	SUBQ   $4, CX
	JNZ    pairs
	RET

// func pickEven4(dst, src unsafe.Pointer, n int, avx2 bool)
//
// Copies element 2i of src to element i of dst for i < n, 4-byte elements,
// n a positive multiple of 4. It reads src up to element 2n-1. With avx2
// eight at a time: two 32-byte loads, a shuffle within the
// 128-bit lanes and a permutation of the four 8-byte pairs put the even
// elements in order (a quarter fewer instructions for Slice's step 2 over
// rows of 112); otherwise, and for a last four, two 16-byte loads, one
// shuffle and one store per 4 elements.
TEXT ·pickEven4(SB), NOSPLIT, $0-25
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	CMPB avx2+24(FP), $0
	JEQ  even
	SUBQ $8, CX
	JB   last4

even8:
	VMOVUPS (SI), Y0          // a0 b0 a1 b1 | a2 b2 a3 b3
	VMOVUPS 32(SI), Y1        // a4 b4 a5 b5 | a6 b6 a7 b7
	VSHUFPS $0x88, Y1, Y0, Y0 // a0 a1 a4 a5 | a2 a3 a6 a7
	VPERMPD $0xD8, Y0, Y0     // a0 a1 a2 a3 | a4 a5 a6 a7
	VMOVUPS Y0, (DI)
	ADDQ    $64, SI
	ADDQ    $32, DI
	SUBQ    $8, CX
	JAE     even8
	VZEROUPPER

last4:
	ADDQ $8, CX
	JZ   done

even:
	MOVUPS (SI), X0        // a0 b0 a1 b1
	MOVUPS 16(SI), X1      // a2 b2 a3 b3
	SHUFPS $0x88, X1, X0   // a0 a1 a2 a3
	MOVUPS X0, (DI)
	ADDQ   $32, SI
	ADDQ   $16, DI
	SUBQ   $4, CX
	JNZ    even

done:
	RET
