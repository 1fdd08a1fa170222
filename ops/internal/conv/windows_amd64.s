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
