//go:build amd64 && !purego

#include "textflag.h"
#include "lanes_amd64.h"

// C(k) is exp32's k-th constant in exp32Consts, eight copies in 32 bytes.
#define C(k) (k*32)(R9)

// EXP32_512_CONSTS broadcasts exp32Consts 0-12 (at R9) to Z16-Z28, where
// EXP32_512 reads them.
#define EXP32_512_CONSTS \
	VBROADCASTSS C(0), Z16 \
	VBROADCASTSS C(1), Z17 \
	VBROADCASTSS C(2), Z18 \
	VBROADCASTSS C(3), Z19 \
	VBROADCASTSS C(4), Z20 \
	VBROADCASTSS C(5), Z21 \
	VBROADCASTSS C(6), Z22 \
	VBROADCASTSS C(7), Z23 \
	VBROADCASTSS C(8), Z24 \
	VBROADCASTSS C(9), Z25 \
	VBROADCASTSS C(10), Z26 \
	VBROADCASTSS C(11), Z27 \
	VBROADCASTSS C(12), Z28

// EXP32_512 sets Z4 to exp32 of the sixteen float32 of Z0, none of them
// NaN or above 0 (exp32's upper clamp and NaN case do nothing then), with
// exp32's operations in exp32's order (exp.go), each fma32 one FMA
// instruction and the scaling by 2^k one VSCALEFPS (a single rounding of
// p*2^k, as exp32's two exact-then-rounding products): the constants in
// Z16-Z28 (exp32Consts 0-12), Z1 and Z2 scratch. EXP32_512X2 does it for
// Z0 and Z5 (into Z4 and Z9, scratch Z6 and Z7) at once, the two chains of
// dependent operations interleaved.
#define EXP32_512 \
	VMAXPS       Z16, Z0, Z1 \
	VMOVAPS      Z18, Z2 \
	VFMADD231PS  Z17, Z1, Z2 \
	VSUBPS       Z18, Z2, Z2 \
	VFNMADD231PS Z19, Z2, Z1 \
	VFNMADD231PS Z20, Z2, Z1 \
	VMOVAPS      Z21, Z4 \
	VFMADD213PS  Z22, Z1, Z4 \
	VFMADD213PS  Z23, Z1, Z4 \
	VFMADD213PS  Z24, Z1, Z4 \
	VFMADD213PS  Z25, Z1, Z4 \
	VFMADD213PS  Z26, Z1, Z4 \
	VFMADD213PS  Z27, Z1, Z4 \
	VFMADD213PS  Z28, Z1, Z4 \
	VSCALEFPS    Z2, Z4, Z4

#define EXP32_512X2 \
	VMAXPS       Z16, Z0, Z1 \
	VMAXPS       Z16, Z5, Z6 \
	VMOVAPS      Z18, Z2 \
	VMOVAPS      Z18, Z7 \
	VFMADD231PS  Z17, Z1, Z2 \
	VFMADD231PS  Z17, Z6, Z7 \
	VSUBPS       Z18, Z2, Z2 \
	VSUBPS       Z18, Z7, Z7 \
	VFNMADD231PS Z19, Z2, Z1 \
	VFNMADD231PS Z19, Z7, Z6 \
	VFNMADD231PS Z20, Z2, Z1 \
	VFNMADD231PS Z20, Z7, Z6 \
	VMOVAPS      Z21, Z4 \
	VMOVAPS      Z21, Z9 \
	VFMADD213PS  Z22, Z1, Z4 \
	VFMADD213PS  Z22, Z6, Z9 \
	VFMADD213PS  Z23, Z1, Z4 \
	VFMADD213PS  Z23, Z6, Z9 \
	VFMADD213PS  Z24, Z1, Z4 \
	VFMADD213PS  Z24, Z6, Z9 \
	VFMADD213PS  Z25, Z1, Z4 \
	VFMADD213PS  Z25, Z6, Z9 \
	VFMADD213PS  Z26, Z1, Z4 \
	VFMADD213PS  Z26, Z6, Z9 \
	VFMADD213PS  Z27, Z1, Z4 \
	VFMADD213PS  Z27, Z6, Z9 \
	VFMADD213PS  Z28, Z1, Z4 \
	VFMADD213PS  Z28, Z6, Z9 \
	VSCALEFPS    Z2, Z4, Z4 \
	VSCALEFPS    Z7, Z9, Z9

// EXP32_256 is EXP32_512 for the eight float32 of Y0, into Y4, the
// constants read at C(k), Y1-Y3 scratch; 2^k1 and 2^k2 are built from
// their exponent bits, as exp32 does.
#define EXP32_256 \
	VMAXPS       C(0), Y0, Y1 \
	VMOVUPS      C(2), Y2 \
	VFMADD231PS  C(1), Y1, Y2 \
	VSUBPS       C(2), Y2, Y2 \
	VFNMADD231PS C(3), Y2, Y1 \
	VFNMADD231PS C(4), Y2, Y1 \
	VMOVUPS      C(5), Y4 \
	VFMADD213PS  C(6), Y1, Y4 \
	VFMADD213PS  C(7), Y1, Y4 \
	VFMADD213PS  C(8), Y1, Y4 \
	VFMADD213PS  C(9), Y1, Y4 \
	VFMADD213PS  C(10), Y1, Y4 \
	VFMADD213PS  C(11), Y1, Y4 \
	VFMADD213PS  C(12), Y1, Y4 \
	VCVTTPS2DQ   Y2, Y2 \
	VPSRAD       $1, Y2, Y3 \
	VPSUBD       Y3, Y2, Y2 \
	VPADDD       C(13), Y3, Y3 \
	VPSLLD       $23, Y3, Y3 \
	VPADDD       C(13), Y2, Y2 \
	VPSLLD       $23, Y2, Y2 \
	VMULPS       Y3, Y4, Y4 \
	VMULPS       Y2, Y4, Y4

// func expShiftedAVX512(dst, src, m *float32, perElement, n int, consts *[15][8]uint32) float32
//
// dst[i] = exp32(src[i] - m[i]) for i < n, where no src[i] - m[i] is NaN
// or above 0 (m[i] is the finite maximum of its slice), thirty-two then
// sixteen at a time, with m's sixteen float32 read again for every block
// when perElement is 0 (the caller fills them with one value); the tail of
// n%16 under the mask K1. Returns the sum of dst in the lane order: lane l
// of Z15 adds the results l, l+16, ... as they come, then LANE_TREE.
TEXT ·expShiftedAVX512(SB), NOSPLIT, $0-52
	MOVQ         dst+0(FP), DI
	MOVQ         src+8(FP), SI
	MOVQ         m+16(FP), R10
	MOVQ         perElement+24(FP), R12
	SHLQ         $6, R12
	MOVQ         n+32(FP), R8
	MOVQ         consts+40(FP), R9
	EXP32_512_CONSTS
	VXORPS       Z15, Z15, Z15
	TAIL_MASK_512
	MOVQ         R8, R11
	SHRQ         $4, R11
	LEAQ         (R12*2), R13

pair512:
	CMPQ    R11, $2
	JLT     one512
	VMOVUPS (SI), Z0
	VMOVUPS 64(SI), Z5
	VSUBPS  (R10), Z0, Z0
	VSUBPS  (R10)(R12*1), Z5, Z5
	EXP32_512X2
	VMOVUPS Z4, (DI)
	VMOVUPS Z9, 64(DI)
	VADDPS  Z4, Z15, Z15
	VADDPS  Z9, Z15, Z15
	ADDQ    $128, SI
	ADDQ    $128, DI
	ADDQ    R13, R10
	SUBQ    $2, R11
	JMP     pair512

one512:
	TESTQ R11, R11
	JZ    tail512

block512:
	VMOVUPS (SI), Z0
	VSUBPS  (R10), Z0, Z0
	EXP32_512
	VMOVUPS Z4, (DI)
	VADDPS  Z4, Z15, Z15
	ADDQ    $64, SI
	ADDQ    $64, DI
	ADDQ    R12, R10

tail512:
	TESTL     BX, BX
	JZ        sum512
	VMOVUPS.Z (SI), K1, Z0
	VMOVUPS.Z (R10), K1, Z5
	VSUBPS    Z5, Z0, Z0
	EXP32_512
	VMOVUPS   Z4, K1, (DI)
	VADDPS    Z4, Z15, K1, Z15

sum512:
	VEXTRACTF64X4 $1, Z15, Y1
	VMOVAPS       Y15, Y0
	LANE_TREE
	VMOVSS X0, ret+48(FP)
	VZEROUPPER
	RET

// func expShiftedAVX2(dst, src, m *float32, perElement, n int, consts *[15][8]uint32, masks *[32]int32) float32
//
// expShiftedAVX512 eight at a time (with the same condition), two blocks
// of eight a step (lanes 0-7 adding into Y14, 8-15 into Y15); the tail
// under the masks at masks[16 - n%16:], its other lanes cleared before
// they are added.
TEXT ·expShiftedAVX2(SB), NOSPLIT, $0-60
	MOVQ    dst+0(FP), DI
	MOVQ    src+8(FP), SI
	MOVQ    m+16(FP), R10
	MOVQ    perElement+24(FP), R12
	SHLQ    $6, R12
	MOVQ    n+32(FP), R8
	MOVQ    consts+40(FP), R9
	MOVQ    masks+48(FP), AX
	VXORPS  Y14, Y14, Y14
	VXORPS  Y15, Y15, Y15
	TAIL_MASKS_256(Y12, Y13)
	MOVQ    R8, R11
	SHRQ    $4, R11
	TESTQ   R11, R11
	JZ      tail2

block2:
	VMOVUPS (SI), Y0
	VSUBPS  (R10), Y0, Y0
	EXP32_256
	VMOVUPS Y4, (DI)
	VADDPS  Y4, Y14, Y14
	VMOVUPS 32(SI), Y0
	VSUBPS  32(R10), Y0, Y0
	EXP32_256
	VMOVUPS Y4, 32(DI)
	VADDPS  Y4, Y15, Y15
	ADDQ    $64, SI
	ADDQ    $64, DI
	ADDQ    R12, R10
	DECQ    R11
	JNZ     block2

tail2:
	TESTQ      CX, CX
	JZ         sum2
	VMASKMOVPS (SI), Y12, Y0
	VMASKMOVPS (R10), Y12, Y6
	VSUBPS     Y6, Y0, Y0
	EXP32_256
	VMASKMOVPS Y4, Y12, (DI)
	VANDPS     Y12, Y4, Y4
	VADDPS     Y4, Y14, Y14
	VMASKMOVPS 32(SI), Y13, Y0
	VMASKMOVPS 32(R10), Y13, Y6
	VSUBPS     Y6, Y0, Y0
	EXP32_256
	VMASKMOVPS Y4, Y13, 32(DI)
	VANDPS     Y13, Y4, Y4
	VADDPS     Y4, Y15, Y15

sum2:
	VMOVAPS Y14, Y0
	VMOVAPS Y15, Y1
	LANE_TREE
	VMOVSS X0, ret+56(FP)
	VZEROUPPER
	RET

// func divideBy8(y *float32, n int, s float32)
//
// y[i] /= s for i < n (a multiple of 8), eight at a time: each quotient
// rounds as Go's scalar division does.
TEXT ·divideBy8(SB), NOSPLIT, $0-20
	MOVQ         y+0(FP), DI
	MOVQ         n+8(FP), CX
	VBROADCASTSS s+16(FP), Y1
	XORQ         AX, AX

divloop:
	CMPQ         AX, CX
	JGE          divdone
	VMOVUPS      (DI)(AX*4), Y0
	VDIVPS       Y1, Y0, Y0
	VMOVUPS      Y0, (DI)(AX*4)
	ADDQ         $8, AX
	JMP          divloop

divdone:
	VZEROUPPER
	RET

// func logShiftBy8(x, y *float32, n int, m, ls float32)
//
// y[i] = (x[i] - m) - ls for i < n (a multiple of 8), eight at a time:
// two float32 subtractions, each rounded as Go's scalar one is
// (LogSoftmax's last step).
TEXT ·logShiftBy8(SB), NOSPLIT, $0-32
	MOVQ         x+0(FP), SI
	MOVQ         y+8(FP), DI
	MOVQ         n+16(FP), CX
	VBROADCASTSS m+24(FP), Y1
	VBROADCASTSS ls+28(FP), Y2
	XORQ         AX, AX

shiftloop:
	CMPQ         AX, CX
	JGE          shiftdone
	VMOVUPS      (SI)(AX*4), Y0
	VSUBPS       Y1, Y0, Y0
	VSUBPS       Y2, Y0, Y0
	VMOVUPS      Y0, (DI)(AX*4)
	ADDQ         $8, AX
	JMP          shiftloop

shiftdone:
	VZEROUPPER
	RET

// func max8(x *float32, n int) (m float32, nan bool)
//
// m is the largest of x[0:n] (n a positive multiple of 8) and nan whether
// one of them is NaN (then m means nothing), eight at a time. Of +0 and -0
// it may give either: the caller picks the one Go's scalar loop would.
TEXT ·max8(SB), NOSPLIT, $0-21
	MOVQ         x+0(FP), SI
	MOVQ         n+8(FP), CX
	VMOVUPS      (SI), Y0
	VXORPS       Y2, Y2, Y2
	XORQ         AX, AX

maxloop:
	CMPQ         AX, CX
	JGE          maxdone
	VMOVUPS      (SI)(AX*4), Y1
	VCMPPS       $3, Y1, Y1, Y3     // unordered: NaN
	VORPS        Y3, Y2, Y2
	VMAXPS       Y1, Y0, Y0
	ADDQ         $8, AX
	JMP          maxloop

maxdone:
	VEXTRACTF128 $1, Y0, X1
	VMAXPS       X1, X0, X0
	VSHUFPS      $0x4E, X0, X0, X1
	VMAXPS       X1, X0, X0
	VSHUFPS      $0xB1, X0, X0, X1
	VMAXPS       X1, X0, X0
	VMOVSS       X0, m+16(FP)
	VMOVMSKPS    Y2, BX
	TESTQ        BX, BX
	SETNE        nan+20(FP)
	VZEROUPPER
	RET

// ROW_MAX_512(stop) sets the low lane of X10 to the largest of the row of
// R8 float32 at SI (the full blocks, R11 bytes, then the tail under K1 when
// BX is set), lanes at -inf (Z31) for the tail's missing ones, by a tree
// over the lanes; it jumps to stop where the row holds a NaN (K3 gathers
// the lanes that saw one) or its largest element is not finite (+inf, or
// -inf only). Z11, K2, K3 and AX are scratch. Its labels are the calling
// function's (the assembler scopes labels by function), so each function
// uses it once.
#define ROW_MAX_512(stop) \
	VMOVAPS       Z31, Z10 \
	KXORW         K3, K3, K3 \
	XORQ          AX, AX \
rowmaxblock: \
	CMPQ          AX, R11 \
	JGE           rowmaxtail \
	VMOVUPS       (SI)(AX*1), Z11 \
	VCMPPS        $3, Z11, Z11, K2 \
	KORW          K2, K3, K3 \
	VMAXPS        Z11, Z10, Z10 \
	ADDQ          $64, AX \
	JMP           rowmaxblock \
rowmaxtail: \
	TESTL         BX, BX \
	JZ            rowmaxtree \
	VMOVAPS       Z31, Z11 \
	VMOVUPS       (SI)(AX*1), K1, Z11 \
	VCMPPS        $3, Z11, Z11, K2 \
	KORW          K2, K3, K3 \
	VMAXPS        Z11, Z10, Z10 \
rowmaxtree: \
	VEXTRACTF64X4 $1, Z10, Y11 \
	VMAXPS        Y11, Y10, Y10 \
	VEXTRACTF128  $1, Y10, X11 \
	VMAXPS        X11, X10, X10 \
	VSHUFPS       $0x4E, X10, X10, X11 \
	VMAXPS        X11, X10, X10 \
	VSHUFPS       $0xB1, X10, X10, X11 \
	VMAXPS        X11, X10, X10 \
	KORTESTW      K3, K3 \
	JNZ           stop \
	VMOVD         X10, AX \
	ANDL          $0x7fffffff, AX \
	CMPL          AX, $0x7f800000 \
	JAE           stop

// DIV_PREV divides the sixteen float32 at (R13)(AX*1), a block of the
// previous row's exponentials, by Z30 (that row's sum) into (CX)(AX*1), the
// block of that row of y, when R14 is set; the division unit runs beside
// the exponentials of the current row. The store is a streaming one
// (VMOVNTPS) when R15 (the scratch rows of a streamed call) is set.
#define DIV_PREV \
	TESTQ    R14, R14 \
	JZ       8(PC) \
	VMOVUPS  (R13)(AX*1), Z11 \
	VDIVPS   Z30, Z11, Z11 \
	TESTQ    R15, R15 \
	JNZ      3(PC) \
	VMOVUPS  Z11, (CX)(AX*1) \
	JMP      2(PC) \
	VMOVNTPS Z11, (CX)(AX*1)

// DIV_PREV_TAIL is DIV_PREV for the lanes of the tail, under the mask K1
// (never streamed: a streamed call's rows have no tail).
#define DIV_PREV_TAIL \
	TESTQ     R14, R14 \
	JZ        4(PC) \
	VMOVUPS.Z (R13)(AX*1), K1, Z11 \
	VDIVPS    Z30, Z11, Z11 \
	VMOVUPS   Z11, K1, (CX)(AX*1)

// func softmaxRowsAVX512(x, y *float32, n, rows int, consts *[15][8]uint32, scratch *float32) int
//
// Softmax of the rows of n float32 (n > 0) of x into y, as softmaxRow
// computes it (the same float32 operations in the same order, so the same
// bits): per row the largest element m (any NaN flagged on the way), then
// e = exp32(x - m) and their sum s in the lane order as expShiftedAVX512,
// then e / s. The divisions of each row run one block at a time among the
// next row's exponentials, so that the divider and the FMA units work at
// once; the last row's are done at the end. It stops before the first row
// whose m is not finite (a NaN, or +inf or -inf only), after finishing the
// rows before it, and returns how many rows it wrote. With scratch (two
// rows of n floats; n a multiple of 16, y 64-byte aligned) the
// exponentials go to the scratch rows in turn and only the quotients to y,
// with streaming stores, fenced before it returns: y's lines are written
// once, whole, with no read for ownership.
TEXT ·softmaxRowsAVX512(SB), NOSPLIT, $0-56
	MOVQ         x+0(FP), SI
	MOVQ         y+8(FP), DI
	MOVQ         n+16(FP), R8
	MOVQ         rows+24(FP), DX
	MOVQ         consts+32(FP), R9
	MOVQ         scratch+40(FP), R15
	EXP32_512_CONSTS
	VBROADCASTSS C(14), Z31 // -inf
	TAIL_MASK_512
	MOVQ         R8, R11
	SHRQ         $4, R11    // full blocks a row
	SHLQ         $6, R11    // their bytes
	XORQ         R14, R14   // no previous row yet
	XORQ         R10, R10   // rows written
	MOVQ         DI, R12    // where the row's exponentials go
	TESTQ        R15, R15
	JZ           rowloop
	MOVQ         R15, R12

rowloop:
	CMPQ R10, DX
	JGE  finish

	// m: the largest element (stop at a NaN, +inf, or -inf only).
	ROW_MAX_512(finish)
	VBROADCASTSS  X10, Z12

	// e = exp32(x - m) into y, summed in Z15; the previous row divided.
	VXORPS Z15, Z15, Z15
	XORQ   AX, AX

expblock:
	CMPQ    AX, R11
	JGE     exptail
	VMOVUPS (SI)(AX*1), Z0
	VSUBPS  Z12, Z0, Z0
	EXP32_512
	VMOVUPS Z4, (R12)(AX*1)
	VADDPS  Z4, Z15, Z15
	DIV_PREV
	ADDQ    $64, AX
	JMP     expblock

exptail:
	TESTL     BX, BX
	JZ        expsum
	VMOVUPS.Z (SI)(AX*1), K1, Z0
	VSUBPS    Z12, Z0, Z0
	EXP32_512
	VMOVUPS   Z4, K1, (R12)(AX*1)
	VADDPS    Z4, Z15, K1, Z15
	DIV_PREV_TAIL

expsum:
	VEXTRACTF64X4 $1, Z15, Y1
	VMOVAPS       Y15, Y0
	LANE_TREE
	VBROADCASTSS  X0, Z30        // s, for this row's divisions
	MOVQ          R12, R13       // its exponentials
	MOVQ          DI, CX         // its row of y
	MOVQ          $1, R14
	LEAQ          (SI)(R8*4), SI
	LEAQ          (DI)(R8*4), DI
	INCQ          R10

	// The next row's exponentials: its row of y, or the other scratch row.
	MOVQ  DI, R12
	TESTQ R15, R15
	JZ    rowloop
	MOVQ  R15, R12
	CMPQ  R13, R15
	JNE   rowloop
	LEAQ  (R15)(R8*4), R12
	JMP   rowloop

finish:
	// The last row written, if any, is still to divide.
	XORQ AX, AX

divblock:
	CMPQ AX, R11
	JGE  divtail
	DIV_PREV
	ADDQ $64, AX
	JMP  divblock

divtail:
	TESTL BX, BX
	JZ    done
	DIV_PREV_TAIL

done:
	TESTQ  R15, R15
	JZ     2(PC)
	SFENCE
	MOVQ   R10, ret+48(FP)
	VZEROUPPER
	RET

// LOG64(c, X) loads the float64 of bits c into X, through R12.
#define LOG64(c, X) \
	MOVQ  c, R12 \
	VMOVQ R12, X

// LOG_SUM64 sets the low float64 of X1 to math.Log(float64(s)),
// s the float32 in the low lane of X0, a sum of exponentials of a row (at
// least 1, finite): Go's math.Log on amd64 (archLog, math/log_amd64.s),
// its float64 operations in its order with the VEX forms of its
// instructions, so the same bits; its special cases (s zero, negative,
// infinite or NaN) cannot occur. X0-X8, AX and R12-R13 are scratch.
// LOG_SUM sets the low float32 of X13 to it rounded to float32.
#define LOG_SUM64 \
	VCVTSS2SD X0, X0, X0 \
	VMOVQ     X0, R13 \
	MOVQ      $0x000FFFFFFFFFFFFF, AX \
	ANDQ      R13, AX \
	MOVQ      $0x3FE0000000000000, R12 \
	ORQ       R12, AX \
	VMOVQ     AX, X2 /* f1, of Frexp */ \
	SHRQ      $52, R13 \
	ANDL      $0x7FF, R13 \
	SUBL      $0x3FE, R13 \
	VXORPD    X1, X1, X1 \
	VCVTSI2SDL R13, X1, X1 /* k */ \
	LOG64($0x3FE6A09E667F3BCD, X0) /* sqrt(2)/2 */ \
	VCMPSD    $5, X2, X0, X0 /* !(sqrt(2)/2 < f1) */ \
	LOG64($0x3FF0000000000000, X7) /* 1 */ \
	VANDPD    X0, X7, X3 \
	VSUBSD    X3, X1, X1 /* k -= 1 or 0 */ \
	VADDSD    X7, X3, X3 \
	VMULSD    X3, X2, X2 /* f1 *= 2 or 1 */ \
	VSUBSD    X7, X2, X2 /* f = f1 - 1 */ \
	LOG64($0x4000000000000000, X0) /* 2 */ \
	VADDSD    X2, X0, X0 \
	VDIVSD    X0, X2, X3 /* s = f / (2 + f) */ \
	VMULSD    X3, X3, X4 /* s2 */ \
	VMULSD    X4, X4, X5 /* s4 */ \
	LOG64($0x3FC2F112DF3E5244, X6) /* L7 */ \
	VMULSD    X5, X6, X6 \
	LOG64($0x3FC7466496CB03DE, X8) /* L5 */ \
	VADDSD    X8, X6, X6 \
	VMULSD    X5, X6, X6 \
	LOG64($0x3FD2492494229359, X8) /* L3 */ \
	VADDSD    X8, X6, X6 \
	VMULSD    X5, X6, X6 \
	LOG64($0x3FE5555555555593, X8) /* L1 */ \
	VADDSD    X8, X6, X6 \
	VMULSD    X6, X4, X4 /* t1 */ \
	LOG64($0x3FC39A09D078C69F, X6) /* L6 */ \
	VMULSD    X5, X6, X6 \
	LOG64($0x3FCC71C51D8E78AF, X8) /* L4 */ \
	VADDSD    X8, X6, X6 \
	VMULSD    X5, X6, X6 \
	LOG64($0x3FD999999997FA04, X8) /* L2 */ \
	VADDSD    X8, X6, X6 \
	VMULSD    X6, X5, X5 /* t2 */ \
	VADDSD    X5, X4, X4 /* R = t1 + t2 */ \
	LOG64($0x3FE0000000000000, X0) /* 0.5 */ \
	VMULSD    X2, X0, X0 \
	VMULSD    X2, X0, X0 /* hfsq */ \
	VADDSD    X0, X4, X4 /* hfsq + R */ \
	VMULSD    X4, X3, X3 /* s*(hfsq+R) */ \
	LOG64($0x3DEA39EF35793C76, X4) /* Ln2Lo */ \
	VMULSD    X1, X4, X4 \
	VADDSD    X4, X3, X3 /* s*(hfsq+R) + k*Ln2Lo */ \
	VSUBSD    X3, X0, X0 \
	VSUBSD    X2, X0, X0 /* (hfsq - (...)) - f */ \
	LOG64($0x3FE62E42FEE00000, X4) /* Ln2Hi */ \
	VMULSD    X4, X1, X1 \
	VSUBSD    X0, X1, X1 /* k*Ln2Hi - (...) */

#define LOG_SUM \
	LOG_SUM64 \
	VCVTSD2SS X1, X1, X13

// func logSum64(s float32) float64
//
// LOG_SUM64 of s, for the tests: math.Log(float64(s)) for s >= 1 finite.
TEXT ·logSum64(SB), NOSPLIT, $0-16
	VMOVSS s+0(FP), X0
	LOG_SUM64
	VMOVSD X1, ret+8(FP)
	RET

// SHIFT_PREV sets the sixteen float32 at (R14)(AX*1), a block of the
// previous row of y, to (x - m) - ls, x the block at (CX)(AX*1), m in Z14
// and ls in Z13 that row's, when R14 is set: LogSoftmax's last step of a
// row runs among the next row's exponentials, while its logarithm's
// chain of dependent operations is done. The store is a streaming one
// (VMOVNTPS: no read for ownership, no room in the cache) when R15 is set,
// which the caller does only where every block of y is 64-byte aligned.
#define SHIFT_PREV \
	TESTQ    R14, R14 \
	JZ       9(PC) \
	VMOVUPS  (CX)(AX*1), Z5 \
	VSUBPS   Z14, Z5, Z5 \
	VSUBPS   Z13, Z5, Z5 \
	TESTQ    R15, R15 \
	JNZ      3(PC) \
	VMOVUPS  Z5, (R14)(AX*1) \
	JMP      2(PC) \
	VMOVNTPS Z5, (R14)(AX*1)

// SHIFT_PREV_TAIL is SHIFT_PREV for the lanes of the tail, under the mask
// K1.
#define SHIFT_PREV_TAIL \
	TESTQ     R14, R14 \
	JZ        5(PC) \
	VMOVUPS.Z (CX)(AX*1), K1, Z5 \
	VSUBPS    Z14, Z5, Z5 \
	VSUBPS    Z13, Z5, Z5 \
	VMOVUPS   Z5, K1, (R14)(AX*1)

// func logSoftmaxRowsAVX512(x, y *float32, n, rows int, consts *[15][8]uint32, stream bool) int
//
// LogSoftmax of the rows of n float32 (n > 0) of x into y, as softmaxRow
// computes it (the same float32 operations in the same order, and
// math.Log's float64 ones, so the same bits), each row while it is in the
// first-level cache: the largest element m (any NaN flagged on the way);
// the sum s of exp32(x - m) in the lane order as expShiftedAVX512, the
// exponentials kept in registers only; ls = float32(math.Log(float64(s)))
// (LOG_SUM); then y = (x - m) - ls, one block at a time among the next
// row's exponentials (SHIFT_PREV), the last row's at the end. It stops
// before the first row whose largest element is not finite (a NaN, or
// +inf or -inf only), after finishing the rows before it, and returns how
// many rows it wrote. With stream (n a multiple of 16, y 64-byte aligned)
// y's stores are streaming ones, fenced before it returns.
TEXT ·logSoftmaxRowsAVX512(SB), NOSPLIT, $0-56
	MOVQ         x+0(FP), SI
	MOVQ         y+8(FP), DI
	MOVQ         n+16(FP), R8
	MOVQ         rows+24(FP), DX
	MOVQ         consts+32(FP), R9
	MOVBQZX      stream+40(FP), R15
	EXP32_512_CONSTS
	VBROADCASTSS C(14), Z31 // -inf
	TAIL_MASK_512
	MOVQ         R8, R11
	SHRQ         $4, R11    // full blocks a row
	SHLQ         $6, R11    // their bytes
	XORQ         R10, R10   // rows done
	XORQ         R14, R14   // no previous row yet

lsmrow:
	CMPQ R10, DX
	JGE  lsmfinish

	// m: the largest element (stop at a NaN, +inf, or -inf only).
	ROW_MAX_512(lsmfinish)
	VBROADCASTSS  X10, Z12

	// s: the sum of exp32(x - m), in Z15 by lanes; the previous row's
	// last step.
	VXORPS Z15, Z15, Z15
	XORQ   AX, AX

lsmexpblock:
	CMPQ    AX, R11
	JGE     lsmexptail
	VMOVUPS (SI)(AX*1), Z0
	VSUBPS  Z12, Z0, Z0
	EXP32_512
	VADDPS  Z4, Z15, Z15
	SHIFT_PREV
	ADDQ    $64, AX
	JMP     lsmexpblock

lsmexptail:
	TESTL     BX, BX
	JZ        lsmexpsum
	VMOVUPS.Z (SI)(AX*1), K1, Z0
	VSUBPS    Z12, Z0, Z0
	EXP32_512
	VADDPS    Z4, Z15, K1, Z15
	SHIFT_PREV_TAIL

lsmexpsum:
	VEXTRACTF64X4 $1, Z15, Y1
	VMOVAPS       Y15, Y0
	LANE_TREE
	LOG_SUM
	VBROADCASTSS  X13, Z13       // ls, m and the row for SHIFT_PREV
	VMOVAPS       Z12, Z14
	MOVQ          SI, CX
	MOVQ          DI, R14
	LEAQ          (SI)(R8*4), SI
	LEAQ          (DI)(R8*4), DI
	INCQ          R10
	JMP           lsmrow

lsmfinish:
	// The last row done, if any, is still to shift.
	XORQ AX, AX

lsmshiftblock:
	CMPQ AX, R11
	JGE  lsmshifttail
	SHIFT_PREV
	ADDQ $64, AX
	JMP  lsmshiftblock

lsmshifttail:
	TESTL BX, BX
	JZ    lsmdone
	SHIFT_PREV_TAIL

lsmdone:
	TESTQ  R15, R15
	JZ     2(PC)
	SFENCE
	MOVQ   R10, ret+48(FP)
	VZEROUPPER
	RET
// func expSumRowsAVX512(x *float32, n, rows int, consts *[15][8]uint32, m, s *float32) int
//
// The first steps of LogSoftmax over the rows of n float32 (n > 0) of x,
// as logSoftmaxRowsAVX512 before its logarithm: per row r the largest
// element m[r], then the sum s[r] of exp32(x - m[r]) in the lane order,
// the exponentials kept in registers only. It stops before the first row
// whose largest element is not finite (a NaN, or +inf or -inf only) and
// returns how many rows it did.
TEXT ·expSumRowsAVX512(SB), NOSPLIT, $0-56
	MOVQ         x+0(FP), SI
	MOVQ         n+8(FP), R8
	MOVQ         rows+16(FP), DX
	MOVQ         consts+24(FP), R9
	MOVQ         m+32(FP), R12
	MOVQ         s+40(FP), R13
	EXP32_512_CONSTS
	VBROADCASTSS C(14), Z31 // -inf
	TAIL_MASK_512
	MOVQ         R8, R11
	SHRQ         $4, R11    // full blocks a row
	SHLQ         $6, R11    // their bytes
	XORQ         R10, R10   // rows done

esrow:
	CMPQ R10, DX
	JGE  esdone

	// m: the largest element (stop at a NaN, +inf, or -inf only).
	ROW_MAX_512(esdone)
	VMOVSS        X10, (R12)(R10*4)
	VBROADCASTSS  X10, Z12

	// The sum of exp32(x - m), in Z15 by lanes.
	VXORPS Z15, Z15, Z15
	XORQ   AX, AX

esexpblock:
	CMPQ    AX, R11
	JGE     esexptail
	VMOVUPS (SI)(AX*1), Z0
	VSUBPS  Z12, Z0, Z0
	EXP32_512
	VADDPS  Z4, Z15, Z15
	ADDQ    $64, AX
	JMP     esexpblock

esexptail:
	TESTL     BX, BX
	JZ        esexpsum
	VMOVUPS.Z (SI)(AX*1), K1, Z0
	VSUBPS    Z12, Z0, Z0
	EXP32_512
	VADDPS    Z4, Z15, K1, Z15

esexpsum:
	VEXTRACTF64X4 $1, Z15, Y1
	VMOVAPS       Y15, Y0
	LANE_TREE
	VMOVSS        X0, (R13)(R10*4)
	LEAQ          (SI)(R8*4), SI
	INCQ          R10
	JMP           esrow

esdone:
	MOVQ R10, ret+48(FP)
	VZEROUPPER
	RET

// func logShiftRowsAVX512(x, y *float32, n, rows int, m, ls *float32)
//
// y[r*n+i] = (x[r*n+i] - m[r]) - ls[r] for the rows of n float32 (n > 0),
// sixteen at a time, the tail of each row under the mask K1: LogSoftmax's
// last step, two float32 subtractions each rounded as Go's scalar one is.
TEXT ·logShiftRowsAVX512(SB), NOSPLIT, $0-48
	MOVQ x+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ n+16(FP), R8
	MOVQ rows+24(FP), DX
	MOVQ m+32(FP), R12
	MOVQ ls+40(FP), R13
	TAIL_MASK_512
	MOVQ R8, R11
	SHRQ $4, R11  // full blocks a row
	SHLQ $6, R11  // their bytes
	XORQ R10, R10

lsrow:
	CMPQ         R10, DX
	JGE          lsdone
	VBROADCASTSS (R12)(R10*4), Z1
	VBROADCASTSS (R13)(R10*4), Z2
	XORQ         AX, AX

lsblock:
	CMPQ    AX, R11
	JGE     lstail
	VMOVUPS (SI)(AX*1), Z0
	VSUBPS  Z1, Z0, Z0
	VSUBPS  Z2, Z0, Z0
	VMOVUPS Z0, (DI)(AX*1)
	ADDQ    $64, AX
	JMP     lsblock

lstail:
	TESTL     BX, BX
	JZ        lsnext
	VMOVUPS.Z (SI)(AX*1), K1, Z0
	VSUBPS    Z1, Z0, Z0
	VSUBPS    Z2, Z0, Z0
	VMOVUPS   Z0, K1, (DI)(AX*1)

lsnext:
	LEAQ (SI)(R8*4), SI
	LEAQ (DI)(R8*4), DI
	INCQ R10
	JMP  lsrow

lsdone:
	VZEROUPPER
	RET
