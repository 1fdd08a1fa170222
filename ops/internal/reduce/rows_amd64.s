//go:build amd64 && !purego

#include "textflag.h"
#include "lanes_amd64.h"

// EXTREME_4(OP) folds four vectors at (R11) into the accumulators Z0-Z3
// with OP (VMAXPS or VMINPS) and ORs their NaN lanes into K2.
#define EXTREME_4(OP) \
	VMOVUPS (R11), Z4 \
	VMOVUPS 64(R11), Z5 \
	VMOVUPS 128(R11), Z6 \
	VMOVUPS 192(R11), Z7 \
	VCMPPS  $3, Z4, Z4, K3 \
	VCMPPS  $3, Z5, Z5, K4 \
	KORW    K3, K2, K2 \
	KORW    K4, K2, K2 \
	VCMPPS  $3, Z6, Z6, K3 \
	VCMPPS  $3, Z7, Z7, K4 \
	KORW    K3, K2, K2 \
	KORW    K4, K2, K2 \
	OP      Z4, Z0, Z0 \
	OP      Z5, Z1, Z1 \
	OP      Z6, Z2, Z2 \
	OP      Z7, Z3, Z3

// EXTREME_TREE(OP) leaves OP of the sixty-four lanes of Z0-Z3 in X0.
#define EXTREME_TREE(OP) \
	OP            Z1, Z0, Z0 \
	OP            Z3, Z2, Z2 \
	OP            Z2, Z0, Z0 \
	VEXTRACTF64X4 $1, Z0, Y1 \
	OP            Y1, Y0, Y0 \
	VEXTRACTF128  $1, Y0, X1 \
	OP            X1, X0, X0 \
	VSHUFPS       $0x4E, X0, X0, X1 \
	OP            X1, X0, X0 \
	VSHUFPS       $0xB1, X0, X0, X1 \
	OP            X1, X0, X0

// func rowExtremesAVX512(x *float32, n, rows int, out *float32, min bool)
//
// out[r] is the largest (the smallest with min) of the n float32 of row r
// of x, for r < rows (n > 0), in four sixteen-lane accumulators; a tail of
// n%16 elements is loaded under K1 over the identity (-inf, or +inf with
// min). A row holding a NaN gives NaN. Of +0 and -0 it may give either:
// the caller rereads rows whose result is 0 or NaN as the scalar loop
// does.
TEXT ·rowExtremesAVX512(SB), NOSPLIT, $0-33
	MOVQ    x+0(FP), SI
	MOVQ    n+8(FP), R8
	MOVQ    rows+16(FP), DX
	MOVQ    out+24(FP), DI
	MOVBLZX min+32(FP), AX
	TAIL_MASK_512
	MOVQ    R8, R9
	SHRQ    $4, R9
	MOVL    $0xff800000, R12
	TESTQ   AX, AX
	JZ      identity
	MOVL    $0x7f800000, R12

identity:
	VPBROADCASTD R12, Z31
	TESTQ        AX, AX
	JNZ          minrow

maxrow:
	VMOVAPS Z31, Z0
	VMOVAPS Z31, Z1
	VMOVAPS Z31, Z2
	VMOVAPS Z31, Z3
	KXORW   K2, K2, K2
	MOVQ    SI, R11
	MOVQ    R9, R10

max4:
	CMPQ R10, $4
	JLT  max1
	EXTREME_4(VMAXPS)
	ADDQ $256, R11
	SUBQ $4, R10
	JMP  max4

max1:
	TESTQ   R10, R10
	JZ      maxtail
	VMOVUPS (R11), Z4
	VCMPPS  $3, Z4, Z4, K3
	KORW    K3, K2, K2
	VMAXPS  Z4, Z0, Z0
	ADDQ    $64, R11
	DECQ    R10
	JMP     max1

maxtail:
	TESTL   BX, BX
	JZ      maxtree
	VMOVAPS Z31, Z4
	VMOVUPS (R11), K1, Z4
	VCMPPS  $3, Z4, Z4, K3
	KORW    K3, K2, K2
	VMAXPS  Z4, Z0, Z0

maxtree:
	EXTREME_TREE(VMAXPS)
	VMOVSS   X0, (DI)
	KORTESTW K2, K2
	JZ       maxnext
	MOVL     $0x7fc00000, (DI)

maxnext:
	ADDQ $4, DI
	LEAQ (SI)(R8*4), SI
	DECQ DX
	JNZ  maxrow
	VZEROUPPER
	RET

minrow:
	VMOVAPS Z31, Z0
	VMOVAPS Z31, Z1
	VMOVAPS Z31, Z2
	VMOVAPS Z31, Z3
	KXORW   K2, K2, K2
	MOVQ    SI, R11
	MOVQ    R9, R10

min4:
	CMPQ R10, $4
	JLT  min1
	EXTREME_4(VMINPS)
	ADDQ $256, R11
	SUBQ $4, R10
	JMP  min4

min1:
	TESTQ   R10, R10
	JZ      mintail
	VMOVUPS (R11), Z4
	VCMPPS  $3, Z4, Z4, K3
	KORW    K3, K2, K2
	VMINPS  Z4, Z0, Z0
	ADDQ    $64, R11
	DECQ    R10
	JMP     min1

mintail:
	TESTL   BX, BX
	JZ      mintree
	VMOVAPS Z31, Z4
	VMOVUPS (R11), K1, Z4
	VCMPPS  $3, Z4, Z4, K3
	KORW    K3, K2, K2
	VMINPS  Z4, Z0, Z0

mintree:
	EXTREME_TREE(VMINPS)
	VMOVSS   X0, (DI)
	KORTESTW K2, K2
	JZ       minnext
	MOVL     $0x7fc00000, (DI)

minnext:
	ADDQ $4, DI
	LEAQ (SI)(R8*4), SI
	DECQ DX
	JNZ  minrow
	VZEROUPPER
	RET

// func rowTermSumsAVX512(x *float32, n, rows int, sums *float32, square bool)
//
// rowSumsAVX512 (sum_amd64.s) of |x| (of x*x with square, each product
// rounded before its addition, as termOf's is): the lane order of
// lanes.go, bit for bit.
TEXT ·rowTermSumsAVX512(SB), NOSPLIT, $0-33
	MOVQ    x+0(FP), SI
	MOVQ    n+8(FP), R8
	MOVQ    rows+16(FP), DX
	MOVQ    sums+24(FP), DI
	MOVBLZX square+32(FP), AX
	TAIL_MASK_512
	MOVQ    R8, R9
	SHRQ    $4, R9
	MOVL    $0x7fffffff, R12
	VPBROADCASTD R12, Z31

termrow:
	VXORPS Z0, Z0, Z0
	MOVQ   SI, R11
	MOVQ   R9, R10
	TESTQ  R10, R10
	JZ     termtail
	TESTQ  AX, AX
	JNZ    squarechunk

abschunk:
	VPANDD (R11), Z31, Z1
	VADDPS Z1, Z0, Z0
	ADDQ   $64, R11
	DECQ   R10
	JNZ    abschunk
	JMP    termtail

squarechunk:
	VMOVUPS (R11), Z1
	VMULPS  Z1, Z1, Z1
	VADDPS  Z1, Z0, Z0
	ADDQ    $64, R11
	DECQ    R10
	JNZ     squarechunk

termtail:
	TESTL     BX, BX
	JZ        termtree
	VMOVUPS.Z (R11), K1, Z1
	VPANDD    Z31, Z1, Z2
	TESTQ     AX, AX
	JZ        2(PC)
	VMULPS    Z1, Z1, Z2
	VADDPS    Z2, Z0, Z0

termtree:
	VEXTRACTF64X4 $1, Z0, Y1
	LANE_TREE
	VMOVSS X0, (DI)
	ADDQ $4, DI
	LEAQ (SI)(R8*4), SI
	DECQ DX
	JNZ  termrow
	VZEROUPPER
	RET

// COLUMN_EXTREME(OP, OFF) sets acc[j] to row[j] where row[j] is NaN and
// acc[j] is not, else to OP(row[j], acc[j]), acc[j] on ties (+0 against
// -0 keeps the first) and when acc[j] is NaN: the scalar loop's rule,
// element by element, for the eight at OFF(DI)(AX*1).
#define COLUMN_EXTREME(OP, OFF) \
	VMOVUPS   OFF(DI)(AX*1), Y0 \
	VMOVUPS   OFF(SI)(AX*1), Y1 \
	OP        Y0, Y1, Y2 \
	VCMPPS    $3, Y1, Y1, Y3 \
	VCMPPS    $7, Y0, Y0, Y4 \
	VANDPS    Y4, Y3, Y3 \
	VBLENDVPS Y3, Y1, Y2, Y2 \
	VMOVUPS   Y2, OFF(DI)(AX*1)

// func maxRowsAVX(acc, row *float32, n int, min bool)
//
// acc[j] = max(acc[j], row[j]) (min with min) for j < n, a multiple of
// 16, as reduceColumns's scalar loop does it: a NaN wins and stays.
TEXT ·maxRowsAVX(SB), NOSPLIT, $0-25
	MOVQ    acc+0(FP), DI
	MOVQ    row+8(FP), SI
	MOVQ    n+16(FP), CX
	MOVBLZX min+24(FP), BX
	SHLQ    $2, CX
	XORQ    AX, AX
	TESTQ   BX, BX
	JNZ     colmin

colmax:
	CMPQ AX, CX
	JAE  coldone
	COLUMN_EXTREME(VMAXPS, 0)
	COLUMN_EXTREME(VMAXPS, 32)
	ADDQ $64, AX
	JMP  colmax

colmin:
	CMPQ AX, CX
	JAE  coldone
	COLUMN_EXTREME(VMINPS, 0)
	COLUMN_EXTREME(VMINPS, 32)
	ADDQ $64, AX
	JMP  colmin

coldone:
	VZEROUPPER
	RET

// func addTermRowsAVX(acc, row *float32, n int, square bool)
//
// acc[j] += |row[j]| (row[j]*row[j], rounded, with square) for j < n, a
// multiple of 16: each element's one term and addition, as reduceColumns's
// scalar loop does them.
TEXT ·addTermRowsAVX(SB), NOSPLIT, $0-25
	MOVQ    acc+0(FP), DI
	MOVQ    row+8(FP), SI
	MOVQ    n+16(FP), CX
	MOVBLZX square+24(FP), BX
	SHLQ    $2, CX
	XORQ    AX, AX
	MOVL    $0x7fffffff, R12
	VMOVQ   R12, X7
	VPBROADCASTD X7, Y7
	TESTQ   BX, BX
	JNZ     sqrow

absrow:
	CMPQ    AX, CX
	JAE     termdone
	VANDPS  (SI)(AX*1), Y7, Y1
	VANDPS  32(SI)(AX*1), Y7, Y2
	VADDPS  (DI)(AX*1), Y1, Y1
	VADDPS  32(DI)(AX*1), Y2, Y2
	VMOVUPS Y1, (DI)(AX*1)
	VMOVUPS Y2, 32(DI)(AX*1)
	ADDQ    $64, AX
	JMP     absrow

sqrow:
	CMPQ    AX, CX
	JAE     termdone
	VMOVUPS (SI)(AX*1), Y1
	VMOVUPS 32(SI)(AX*1), Y2
	VMULPS  Y1, Y1, Y1
	VMULPS  Y2, Y2, Y2
	VADDPS  (DI)(AX*1), Y1, Y1
	VADDPS  32(DI)(AX*1), Y2, Y2
	VMOVUPS Y1, (DI)(AX*1)
	VMOVUPS Y2, 32(DI)(AX*1)
	ADDQ    $64, AX
	JMP     sqrow

termdone:
	VZEROUPPER
	RET
