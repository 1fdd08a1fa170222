//go:build amd64 && !purego

#include "textflag.h"

// func windowRows32AVX512(dst *float32, dstStride int, src *float32, srcStride int, rows int, segs *wseg, nseg int)
//
// For each of rows rows: a row of 32 float32 lanes, zero but where a
// segment puts image values: segment s (off int64, mask uint32) loads
// lane i, for each bit i of mask, from src + off + 4i (a masked load: the
// lanes outside the mask are not read). The row is stored at dst; then
// dst advances by dstStride bytes and src by srcStride bytes.
TEXT ·windowRows32AVX512(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ dstStride+8(FP), R8
	MOVQ src+16(FP), SI
	MOVQ srcStride+24(FP), R9
	MOVQ rows+32(FP), CX
	MOVQ segs+40(FP), R10
	MOVQ nseg+48(FP), R11
	SHLQ $4, R11
	ADDQ R10, R11 // one past the last segment

row:
	TESTQ  CX, CX
	JE     done
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	MOVQ   R10, BX

seg:
	CMPQ    BX, R11
	JAE     store
	MOVQ    (BX), DX
	MOVL    8(BX), AX
	KMOVW   AX, K1
	SHRL    $16, AX
	KMOVW   AX, K2
	VMOVUPS (SI)(DX*1), K1, Z0
	VMOVUPS 64(SI)(DX*1), K2, Z1
	ADDQ    $16, BX
	JMP     seg

store:
	VMOVUPS Z0, (DI)
	VMOVUPS Z1, 64(DI)
	ADDQ    R8, DI
	ADDQ    R9, SI
	DECQ    CX
	JMP     row

done:
	VZEROUPPER
	RET

// evens holds the indices 0, 2, ..., 30: VPERMT2PS with it takes the
// even elements of two vectors (the first's, then the second's).
DATA evens<>+0(SB)/4, $0
DATA evens<>+4(SB)/4, $2
DATA evens<>+8(SB)/4, $4
DATA evens<>+12(SB)/4, $6
DATA evens<>+16(SB)/4, $8
DATA evens<>+20(SB)/4, $10
DATA evens<>+24(SB)/4, $12
DATA evens<>+28(SB)/4, $14
DATA evens<>+32(SB)/4, $16
DATA evens<>+36(SB)/4, $18
DATA evens<>+40(SB)/4, $20
DATA evens<>+44(SB)/4, $22
DATA evens<>+48(SB)/4, $24
DATA evens<>+52(SB)/4, $26
DATA evens<>+56(SB)/4, $28
DATA evens<>+60(SB)/4, $30
GLOBL evens<>(SB), RODATA|NOPTR, $64

// func windowRows32S2AVX512(dst *float32, dstStride int, src *float32, srcStride int, rows int, segs *wseg, nseg int)
//
// windowRows32AVX512 for a stride of 2 along the row: segment s loads
// lane i, for each bit i of its mask, from src + off + 8i. Per segment,
// the 64 elements from src + off load with each lane's even element in
// the mask (PDEP spreads 8 lanes' bits over 16 elements) and the others
// left zero, VPERMT2PS keeps the even elements, and the result joins the
// row by OR (segments do not share a lane; the lanes outside a segment
// are +0, no bit set).
// requires: AVX512F, BMI2
TEXT ·windowRows32S2AVX512(SB), NOSPLIT, $0-56
	MOVQ    dst+0(FP), DI
	MOVQ    dstStride+8(FP), R8
	MOVQ    src+16(FP), SI
	MOVQ    srcStride+24(FP), R9
	MOVQ    rows+32(FP), CX
	MOVQ    segs+40(FP), R10
	MOVQ    nseg+48(FP), R11
	SHLQ    $4, R11
	ADDQ    R10, R11 // one past the last segment
	MOVL    $0x5555, R12
	VMOVDQU32 evens<>(SB), Z31

row2:
	TESTQ  CX, CX
	JE     done2
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	MOVQ   R10, BX

seg2:
	CMPQ      BX, R11
	JAE       store2
	MOVQ      (BX), DX
	MOVL      8(BX), AX
	MOVL      AX, R13
	PDEPL     R12, R13, R13
	KMOVW     R13, K1
	MOVL      AX, R13
	SHRL      $8, R13
	PDEPL     R12, R13, R13
	KMOVW     R13, K2
	MOVL      AX, R13
	SHRL      $16, R13
	PDEPL     R12, R13, R13
	KMOVW     R13, K3
	SHRL      $24, AX
	PDEPL     R12, AX, AX
	KMOVW     AX, K4
	VMOVUPS.Z (SI)(DX*1), K1, Z2
	VMOVUPS.Z 64(SI)(DX*1), K2, Z3
	VMOVUPS.Z 128(SI)(DX*1), K3, Z4
	VMOVUPS.Z 192(SI)(DX*1), K4, Z5
	VPERMT2PS Z3, Z31, Z2
	VPERMT2PS Z5, Z31, Z4
	VPORD     Z2, Z0, Z0
	VPORD     Z4, Z1, Z1
	ADDQ      $16, BX
	JMP       seg2

store2:
	VMOVUPS Z0, (DI)
	VMOVUPS Z1, 64(DI)
	ADDQ    R8, DI
	ADDQ    R9, SI
	DECQ    CX
	JMP     row2

done2:
	VZEROUPPER
	RET
