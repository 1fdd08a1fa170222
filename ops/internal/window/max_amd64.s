//go:build amd64 && !purego

#include "textflag.h"

// MAXNAN(B, A, T, D) sets D to VMAXPS of A and B with every lane where A or
// B is a NaN set to all ones (a NaN): VMAXPS alone would pass on one
// operand of a NaN pair, and the caller only needs to see that a NaN was
// there (it rereads those windows in order). T is scratch.
#define MAXNAN(B, A, T, D) \
	VCMPPS $3, B, A, T \
	VMAXPS B, A, D \
	VORPS  T, D, D

// func maxRowsAVX2(dst, a, b *float32, n int) (clean bool)
//
// clean reports that no lane of a or b is a NaN or a -0: then every zero
// of dst is a +0 that only +0s made, and the caller need not reread any
// window in order (Y12 holds -0 in every lane, Y11 gathers the lanes seen).
TEXT ·maxRowsAVX2(SB), NOSPLIT, $0-33
	MOVQ         dst+0(FP), DI
	MOVQ         a+8(FP), SI
	MOVQ         b+16(FP), DX
	MOVQ         n+24(FP), CX
	MOVL         $0x80000000, AX
	VMOVD        AX, X12
	VPBROADCASTD X12, Y12
	VPXOR        Y11, Y11, Y11
	SHRQ         $3, CX
	JZ           rowsdone

rowsloop:
	VMOVUPS  (SI), Y0
	VMOVUPS  (DX), Y1
	MAXNAN(Y1, Y0, Y2, Y3)
	VMOVUPS  Y3, (DI)
	VPCMPEQD Y12, Y0, Y4
	VPCMPEQD Y12, Y1, Y5
	VPOR     Y4, Y11, Y11
	VPOR     Y5, Y11, Y11
	VPOR     Y2, Y11, Y11
	ADDQ     $32, SI
	ADDQ     $32, DX
	ADDQ     $32, DI
	DECQ     CX
	JNZ      rowsloop

rowsdone:
	VPTEST  Y11, Y11
	SETEQ   clean+32(FP)
	VZEROUPPER
	RET

// SPECIAL(R) ORs into Y15 the lanes of R that are a zero or a NaN (Y14
// holds zeros).
#define SPECIAL(R) \
	VCMPPS $8, Y14, R, Y13 \
	VORPS  Y13, Y15, Y15

// func maxPairsAVX2(dst, src *float32, n int) (special bool)
//
// Sixteen elements give eight outputs: VSHUFPS takes the even and the odd
// elements of each 128-bit half of the two loads, VPERMPD puts the
// halves' pairs back in order. special reports an output that is a zero
// or a NaN.
TEXT ·maxPairsAVX2(SB), NOSPLIT, $0-25
	MOVQ   dst+0(FP), DI
	MOVQ   src+8(FP), SI
	MOVQ   n+16(FP), CX
	VXORPS Y14, Y14, Y14
	VXORPS Y15, Y15, Y15
	SHRQ   $3, CX
	JZ     pairsdone

pairsloop:
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y1
	VSHUFPS $0x88, Y1, Y0, Y2
	VSHUFPS $0xDD, Y1, Y0, Y3
	MAXNAN(Y3, Y2, Y4, Y5)
	VPERMPD $0xD8, Y5, Y5
	SPECIAL(Y5)
	VMOVUPS Y5, (DI)
	ADDQ    $64, SI
	ADDQ    $32, DI
	DECQ    CX
	JNZ     pairsloop

pairsdone:
	VMOVMSKPS Y15, AX
	TESTL     AX, AX
	SETNE     special+24(FP)
	VZEROUPPER
	RET

// func maxTriplesAVX2(dst, src *float32, n int) (special bool)
//
// As maxPairsAVX2, and the even elements of the loads two further on
// (src[2i+2]) as the third tap.
TEXT ·maxTriplesAVX2(SB), NOSPLIT, $0-25
	MOVQ   dst+0(FP), DI
	MOVQ   src+8(FP), SI
	MOVQ   n+16(FP), CX
	VXORPS Y14, Y14, Y14
	VXORPS Y15, Y15, Y15
	SHRQ   $3, CX
	JZ     triplesdone

triplesloop:
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS 8(SI), Y6
	VMOVUPS 40(SI), Y7
	VSHUFPS $0x88, Y1, Y0, Y2
	VSHUFPS $0xDD, Y1, Y0, Y3
	VSHUFPS $0x88, Y7, Y6, Y8
	MAXNAN(Y3, Y2, Y4, Y5)
	MAXNAN(Y8, Y5, Y4, Y9)
	VPERMPD $0xD8, Y9, Y9
	SPECIAL(Y9)
	VMOVUPS Y9, (DI)
	ADDQ    $64, SI
	ADDQ    $32, DI
	DECQ    CX
	JNZ     triplesloop

triplesdone:
	VMOVMSKPS Y15, AX
	TESTL     AX, AX
	SETNE     special+24(FP)
	VZEROUPPER
	RET
