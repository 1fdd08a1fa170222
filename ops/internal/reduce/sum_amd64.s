//go:build amd64 && !purego

#include "textflag.h"
#include "lanes_amd64.h"

// func rowSumsAVX512(x *float32, n, rows int, sums *float32)
//
// sums[r] is the sum in the lane order of the n float32 of row r of x, for
// r < rows (n > 0): Z0 is the row's sixteen partials, lane l adding the
// elements l, l+16, ... in order; a tail of n%16 elements is loaded under
// the mask K1 with +0 in the other lanes. Each row is one chain of
// additions; the processor runs the next rows' chains beside it.
TEXT ·rowSumsAVX512(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), R8
	MOVQ rows+16(FP), DX
	MOVQ sums+24(FP), DI
	TAIL_MASK_512
	MOVQ R8, R9
	SHRQ $4, R9

row512:
	VXORPS Z0, Z0, Z0
	MOVQ   SI, R11
	MOVQ   R9, R10
	TESTQ  R10, R10
	JZ     tail512

chunk512:
	VADDPS (R11), Z0, Z0
	ADDQ   $64, R11
	DECQ   R10
	JNZ    chunk512

tail512:
	TESTL     BX, BX
	JZ        tree512
	VMOVUPS.Z (R11), K1, Z1
	VADDPS    Z1, Z0, Z0

tree512:
	VEXTRACTF64X4 $1, Z0, Y1
	LANE_TREE
	VMOVSS X0, (DI)
	ADDQ $4, DI
	LEAQ (SI)(R8*4), SI
	DECQ DX
	JNZ  row512
	VZEROUPPER
	RET

// func rowSumsAVX2(x *float32, n, rows int, sums *float32, masks *[32]int32)
//
// rowSumsAVX512 with the sixteen partials in Y0 (lanes 0-7) and Y1 (8-15),
// the tail loaded by VMASKMOVPS under the masks at masks[16 - n%16:].
TEXT ·rowSumsAVX2(SB), NOSPLIT, $0-40
	MOVQ    x+0(FP), SI
	MOVQ    n+8(FP), R8
	MOVQ    rows+16(FP), DX
	MOVQ    sums+24(FP), DI
	MOVQ    masks+32(FP), AX
	TAIL_MASKS_256(Y14, Y15)
	MOVQ    R8, R9
	SHRQ    $4, R9

row2:
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	MOVQ   SI, R11
	MOVQ   R9, R10
	TESTQ  R10, R10
	JZ     tail2

chunk2:
	VADDPS (R11), Y0, Y0
	VADDPS 32(R11), Y1, Y1
	ADDQ   $64, R11
	DECQ   R10
	JNZ    chunk2

tail2:
	TESTQ      CX, CX
	JZ         tree2
	VMASKMOVPS (R11), Y14, Y2
	VMASKMOVPS 32(R11), Y15, Y3
	VADDPS     Y2, Y0, Y0
	VADDPS     Y3, Y1, Y1

tree2:
	LANE_TREE
	VMOVSS X0, (DI)
	ADDQ $4, DI
	LEAQ (SI)(R8*4), SI
	DECQ DX
	JNZ  row2
	VZEROUPPER
	RET

// func addRowsAVX(acc, row *float32, n int)
//
// acc[j] += row[j] for j < n (a multiple of 32): each element's one
// addition, as addRow does, thirty-two at a time.
TEXT ·addRowsAVX(SB), NOSPLIT, $0-24
	MOVQ acc+0(FP), DI
	MOVQ row+8(FP), SI
	MOVQ n+16(FP), CX
	SHLQ $2, CX
	XORQ AX, AX

addrow:
	CMPQ    AX, CX
	JAE     addrowdone
	VMOVUPS (DI)(AX*1), Y0
	VMOVUPS 32(DI)(AX*1), Y1
	VMOVUPS 64(DI)(AX*1), Y2
	VMOVUPS 96(DI)(AX*1), Y3
	VADDPS  (SI)(AX*1), Y0, Y0
	VADDPS  32(SI)(AX*1), Y1, Y1
	VADDPS  64(SI)(AX*1), Y2, Y2
	VADDPS  96(SI)(AX*1), Y3, Y3
	VMOVUPS Y0, (DI)(AX*1)
	VMOVUPS Y1, 32(DI)(AX*1)
	VMOVUPS Y2, 64(DI)(AX*1)
	VMOVUPS Y3, 96(DI)(AX*1)
	ADDQ    $128, AX
	JMP     addrow

addrowdone:
	VZEROUPPER
	RET
