//go:build amd64 && !purego

#include "textflag.h"

// func argColsAVX2(x *float32, n, inner, cols int, idx *int32, minimum, last bool)
//
// For each column j < cols (a multiple of 8) of the [n, inner] float32
// block x, idx[j] is the row of its largest element (minimum: smallest,
// by comparing negated values), the first of equal ones or (last) the
// last; a NaN beats every number and is kept, but for a later NaN with
// last. Eight columns at a time, the best values and rows in Y0 and Y1:
// row i replaces the best where
//   first: best is not NaN and (v is NaN or v > best)
//   last:  v is NaN or v >= best (false where best is NaN)
// which is better's rule (argmax.go) lane by lane.
TEXT ·argColsAVX2(SB), NOSPLIT, $0-42
	MOVQ    x+0(FP), SI
	MOVQ    n+8(FP), R8
	MOVQ    inner+16(FP), R9
	MOVQ    cols+24(FP), R10
	MOVQ    idx+32(FP), DI
	MOVBLZX minimum+40(FP), AX
	MOVBLZX last+41(FP), BX
	SHLQ    $2, R9
	SHLQ    $2, R10
	VXORPS  Y15, Y15, Y15
	TESTL   AX, AX
	JZ      nosign
	VPCMPEQD Y15, Y15, Y15
	VPSLLD  $31, Y15, Y15

nosign:
	VPCMPEQD Y6, Y6, Y6
	VPSRLD   $31, Y6, Y6
	XORQ     CX, CX

cols:
	CMPQ    CX, R10
	JAE     done
	LEAQ    (SI)(CX*1), R11
	VMOVUPS (R11), Y0
	VXORPS  Y15, Y0, Y0
	VPXOR   Y1, Y1, Y1
	VMOVDQU Y6, Y5
	MOVQ    $1, R12

rows:
	CMPQ   R12, R8
	JAE    store
	ADDQ   R9, R11
	VMOVUPS (R11), Y2
	VXORPS Y15, Y2, Y2
	VCMPPS $3, Y2, Y2, Y3
	TESTL  BX, BX
	JNZ    lastrule
	VCMPPS $0x1E, Y0, Y2, Y4
	VORPS  Y4, Y3, Y3
	VCMPPS $7, Y0, Y0, Y4
	VANDPS Y4, Y3, Y3
	JMP    blend

lastrule:
	VCMPPS $0x1D, Y0, Y2, Y4
	VORPS  Y4, Y3, Y3

blend:
	VBLENDVPS Y3, Y2, Y0, Y0
	VBLENDVPS Y3, Y5, Y1, Y1
	VPADDD    Y6, Y5, Y5
	INCQ      R12
	JMP       rows

store:
	VMOVDQU Y1, (DI)(CX*1)
	ADDQ    $32, CX
	JMP     cols

done:
	VZEROUPPER
	RET

// func findF32AVX512(x *float32, n int, v float32) int
//
// The first k < n (n a multiple of 16) with x[k] == v (ordered: a NaN
// equals nothing, -0 equals +0), or n: sixteen comparisons at a time.
TEXT ·findF32AVX512(SB), NOSPLIT, $0-32
	MOVQ         x+0(FP), SI
	MOVQ         n+8(FP), CX
	VBROADCASTSS v+16(FP), Z1
	XORQ         AX, AX

findloop:
	CMPQ    AX, CX
	JAE     findnone
	VCMPPS  $0, (SI)(AX*4), Z1, K1
	KMOVW   K1, DX
	TESTL   DX, DX
	JNZ     findhit
	ADDQ    $16, AX
	JMP     findloop

findhit:
	TZCNTL  DX, DX
	ADDQ    DX, AX
	MOVQ    AX, ret+24(FP)
	VZEROUPPER
	RET

findnone:
	MOVQ    CX, ret+24(FP)
	VZEROUPPER
	RET

// func beyondF32AVX512(x *float32, n int, w float32, smallest bool) int
//
// The first k < n (n a multiple of 16) with !(x[k] <= w) (smallest:
// !(x[k] >= w)), that is an element TopK's heap has to look at (larger,
// or smaller, than its worst, or a NaN), or n: sixteen at a time.
TEXT ·beyondF32AVX512(SB), NOSPLIT, $0-32
	MOVQ         x+0(FP), SI
	MOVQ         n+8(FP), CX
	VBROADCASTSS w+16(FP), Z1
	MOVBQZX      smallest+20(FP), BX
	XORQ         AX, AX
	TESTQ        BX, BX
	JNZ          beyondsmall

beyondlarge:
	CMPQ    AX, CX
	JAE     beyondnone
	VMOVUPS (SI)(AX*4), Z2
	VCMPPS  $6, Z1, Z2, K1
	KMOVW   K1, DX
	TESTL   DX, DX
	JNZ     beyondhit
	ADDQ    $16, AX
	JMP     beyondlarge

beyondsmall:
	CMPQ    AX, CX
	JAE     beyondnone
	VMOVUPS (SI)(AX*4), Z2
	VCMPPS  $9, Z1, Z2, K1
	KMOVW   K1, DX
	TESTL   DX, DX
	JNZ     beyondhit
	ADDQ    $16, AX
	JMP     beyondsmall

beyondhit:
	TZCNTL  DX, DX
	ADDQ    DX, AX
	MOVQ    AX, ret+24(FP)
	VZEROUPPER
	RET

beyondnone:
	MOVQ    CX, ret+24(FP)
	VZEROUPPER
	RET
