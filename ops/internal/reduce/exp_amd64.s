//go:build amd64 && !purego

#include "textflag.h"

// C(k) is the k-th constant of expConsts, four copies of it in 32 bytes.
#define C(k) (k*32)(R9)

// EXP4 computes in YD the float64 exp of the four float32 at off(SI)(AX*4)
// minus the four float32 of XM, and in YM all-ones for the lanes that are
// safe (in range, not near half-way); YT is scratch; XD is YD's low half.
// Y15 holds 2*halfwayMargin.
#define EXP4(off, XM, XD, YD, YM, YT, YK, YR) \
	VMOVUPS      off(SI)(AX*4), XD \
	VSUBPS       XM, XD, XD \
	VCVTPS2PD    XD, YD \
	VCMPPD       $0x1D, C(20), YD, YM \
	VCMPPD       $0x12, C(21), YD, YT \
	VANDPD       YT, YM, YM \
	VANDPD       YM, YD, YD \
	VMULPD       C(0), YD, YK \
	VADDPD       C(1), YK, YK \
	VSUBPD       C(1), YK, YT \
	VPSUBQ       C(15), YK, YK \
	VMOVAPD      YD, YR \
	VFNMADD231PD C(2), YT, YR \
	VFNMADD231PD C(3), YT, YR \
	VMOVUPD      C(4), YD \
	VFMADD213PD  C(5), YR, YD \
	VFMADD213PD  C(6), YR, YD \
	VFMADD213PD  C(7), YR, YD \
	VFMADD213PD  C(8), YR, YD \
	VFMADD213PD  C(9), YR, YD \
	VFMADD213PD  C(10), YR, YD \
	VFMADD213PD  C(11), YR, YD \
	VFMADD213PD  C(12), YR, YD \
	VFMADD213PD  C(13), YR, YD \
	VFMADD213PD  C(14), YR, YD \
	VPSLLQ       $52, YK, YK \
	VPADDQ       YK, YD, YD \
	VPAND        C(16), YD, YT \
	VPSUBQ       C(17), YT, YT \
	VPCMPGTQ     C(18), YT, YK \
	VPCMPGTQ     YT, Y15, YT \
	VPAND        YT, YK, YK \
	VPANDN       YM, YK, YM

// func expShifted8(dst, src *float32, n int, m float32, consts *[22][4]uint64) int
//
// dst[i] = float32(exp(float64(src[i] - m))) eight at a time for i < n (a
// multiple of 8), in AVX2 and FMA registers, as expShiftedRow explains:
// x - m in float32, as Go's scalar code; k, the nearest integer to x/ln 2,
// from the low bits of x/ln 2 + 1.5*2^52; r = x - k*ln 2 in two parts; p =
// exp(r) by Horner's rule on the Taylor coefficients; 2^k*p by adding k to
// the exponent. It stops before the first block of eight in which a lane is
// out of range or its float64 result lies within halfwayMargin units of
// half-way between two float32s (the 29 bits that float32 rounding drops
// are within halfwayMargin of 2^28), and returns the number of elements written. Two blocks of
// four run side by side: each is one long chain of dependent operations.
// (The sums of a softmax's rows are added afterwards, by rowSumsF32.)
TEXT ·expShifted8(SB), NOSPLIT, $0-48
	MOVQ         dst+0(FP), DI
	MOVQ         src+8(FP), SI
	MOVQ         n+16(FP), CX
	VBROADCASTSS m+24(FP), X5
	MOVQ         consts+32(FP), R9
	VMOVDQU      C(19), Y15
	XORQ         AX, AX

loop:
	CMPQ         AX, CX
	JGE          done
	EXP4(0, X5, X0, Y0, Y1, Y2, Y3, Y4)
	EXP4(16, X5, X6, Y6, Y7, Y8, Y9, Y10)
	VANDPD       Y7, Y1, Y1
	VMOVMSKPD    Y1, BX
	CMPQ         BX, $15
	JNE          done
	VCVTPD2PSY   Y0, X0
	VCVTPD2PSY   Y6, X6
	VMOVUPS      X0, (DI)(AX*4)
	VMOVUPS      X6, 16(DI)(AX*4)
	ADDQ         $8, AX
	JMP          loop

done:
	MOVQ         AX, ret+40(FP)
	VZEROUPPER
	RET

// func expShiftedEach8(dst, src, m *float32, n int, consts *[22][4]uint64) int
//
// expShifted8 with one m per element: dst[i] = float32(exp(float64(src[i] -
// m[i]))), no sum; the same blocks, checks and stop.
TEXT ·expShiftedEach8(SB), NOSPLIT, $0-48
	MOVQ         dst+0(FP), DI
	MOVQ         src+8(FP), SI
	MOVQ         m+16(FP), DX
	MOVQ         n+24(FP), CX
	MOVQ         consts+32(FP), R9
	VMOVDQU      C(19), Y15
	XORQ         AX, AX

eachloop:
	CMPQ         AX, CX
	JGE          eachdone
	VMOVUPS      (DX)(AX*4), X11
	VMOVUPS      16(DX)(AX*4), X12
	EXP4(0, X11, X0, Y0, Y1, Y2, Y3, Y4)
	EXP4(16, X12, X6, Y6, Y7, Y8, Y9, Y10)
	VANDPD       Y7, Y1, Y1
	VMOVMSKPD    Y1, BX
	CMPQ         BX, $15
	JNE          eachdone
	VCVTPD2PSY   Y0, X0
	VCVTPD2PSY   Y6, X6
	VMOVUPS      X0, (DI)(AX*4)
	VMOVUPS      X6, 16(DI)(AX*4)
	ADDQ         $8, AX
	JMP          eachloop

eachdone:
	MOVQ         AX, ret+40(FP)
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

// EXP8(off, YD, ZD, ZK, ZT, ZR, KS) is EXP4 for the eight float32 at
// off(SI)(AX*4) minus Y5, in 512-bit registers: the float64 result in ZD
// (YD its low half), and in KS the lanes in [-87.3, 88.7] whose 29 dropped
// bits are not within halfwayMargin of 2^28. The constants are broadcast
// from expConsts' first copies; out-of-range lanes compute garbage that no one
// stores (the block stops there).
#define EXP8(off, YD, ZD, ZK, ZT, ZR, KS) \
	VMOVUPS           off(SI)(AX*4), YD \
	VSUBPS            Y5, YD, YD \
	VCVTPS2PD         YD, ZD \
	VCMPPD.BCST       $0x1D, C(20), ZD, KS \
	VCMPPD.BCST       $0x12, C(21), ZD, KS, KS \
	VMULPD.BCST       C(0), ZD, ZK \
	VADDPD.BCST       C(1), ZK, ZK \
	VSUBPD.BCST       C(1), ZK, ZT \
	VPSUBQ.BCST       C(15), ZK, ZK \
	VMOVAPD           ZD, ZR \
	VFNMADD231PD.BCST C(2), ZT, ZR \
	VFNMADD231PD.BCST C(3), ZT, ZR \
	VBROADCASTSD      C(4), ZD \
	VFMADD213PD.BCST  C(5), ZR, ZD \
	VFMADD213PD.BCST  C(6), ZR, ZD \
	VFMADD213PD.BCST  C(7), ZR, ZD \
	VFMADD213PD.BCST  C(8), ZR, ZD \
	VFMADD213PD.BCST  C(9), ZR, ZD \
	VFMADD213PD.BCST  C(10), ZR, ZD \
	VFMADD213PD.BCST  C(11), ZR, ZD \
	VFMADD213PD.BCST  C(12), ZR, ZD \
	VFMADD213PD.BCST  C(13), ZR, ZD \
	VFMADD213PD.BCST  C(14), ZR, ZD \
	VPSLLQ            $52, ZK, ZK \
	VPADDQ            ZK, ZD, ZD \
	VPANDQ.BCST       C(16), ZD, ZT \
	VPSUBQ.BCST       C(17), ZT, ZT \
	VPCMPUQ.BCST      $5, C(19), ZT, KS, KS

// func expShifted8AVX512(dst, src *float32, n int, m float32, consts *[22][4]uint64) int
//
// expShifted8 with the eight lanes of a block in one 512-bit register
// (EXP8): the same float64 steps and checks, half the instructions. Two
// blocks run side by side while both are safe; then one at a time, up to
// the first unsafe block.
TEXT ·expShifted8AVX512(SB), NOSPLIT, $0-48
	MOVQ         dst+0(FP), DI
	MOVQ         src+8(FP), SI
	MOVQ         n+16(FP), CX
	VBROADCASTSS m+24(FP), Y5
	MOVQ         consts+32(FP), R9
	XORQ         AX, AX
	LEAQ         -8(CX), DX            // two blocks fit while AX < n-8

pair512:
	CMPQ         AX, DX
	JGE          loop512
	EXP8(0, Y0, Z0, Z2, Z3, Z4, K1)
	EXP8(32, Y6, Z6, Z7, Z8, Z9, K2)
	KANDB        K2, K1, K3
	KORTESTB     K3, K3
	JCC          loop512               // CF: all sixteen lanes safe
	VCVTPD2PS    Z0, Y0
	VCVTPD2PS    Z6, Y6
	VMOVUPS      Y0, (DI)(AX*4)
	VMOVUPS      Y6, 32(DI)(AX*4)
	ADDQ         $16, AX
	JMP          pair512

loop512:
	CMPQ         AX, CX
	JGE          done512
	EXP8(0, Y0, Z0, Z2, Z3, Z4, K1)
	KORTESTB     K1, K1
	JCC          done512               // CF: all eight lanes safe
	VCVTPD2PS    Z0, Y0
	VMOVUPS      Y0, (DI)(AX*4)
	ADDQ         $8, AX
	JMP          loop512

done512:
	MOVQ         AX, ret+40(FP)
	VZEROUPPER
	RET
