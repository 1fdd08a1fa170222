//go:build amd64 && !purego

#include "textflag.h"

// func lanesF32AVX512(x *float32, n int, m float64, mode int, p *[16]float64)
//
// Adds, for the n float32 of x (n a multiple of 16), float64(x[k]) (mode
// 1: d*d for d = float64(x[k]) - m, the product rounded before the
// addition; mode 2: |float64(x[k])|) to p[k%16], in order: lanes 0-7 in
// Z0, 8-15 in Z1, each operation the one sum, sumSquaresAbout and sumAbs
// do in float64.
TEXT ·lanesF32AVX512(SB), NOSPLIT, $0-40
	MOVQ         x+0(FP), SI
	MOVQ         n+8(FP), CX
	VBROADCASTSD m+16(FP), Z4
	MOVQ         mode+24(FP), BX
	MOVQ         p+32(FP), DI
	VMOVUPD      (DI), Z0
	VMOVUPD      64(DI), Z1
	SHRQ         $4, CX
	TESTQ        CX, CX
	JZ           lanesdone
	CMPQ         BX, $1
	JEQ          squares
	CMPQ         BX, $2
	JEQ          absolutes

sums:
	VCVTPS2PD (SI), Z2
	VCVTPS2PD 32(SI), Z3
	VADDPD    Z2, Z0, Z0
	VADDPD    Z3, Z1, Z1
	ADDQ      $64, SI
	DECQ      CX
	JNZ       sums
	JMP       lanesdone

squares:
	VCVTPS2PD (SI), Z2
	VCVTPS2PD 32(SI), Z3
	VSUBPD    Z4, Z2, Z2
	VSUBPD    Z4, Z3, Z3
	VMULPD    Z2, Z2, Z2
	VMULPD    Z3, Z3, Z3
	VADDPD    Z2, Z0, Z0
	VADDPD    Z3, Z1, Z1
	ADDQ      $64, SI
	DECQ      CX
	JNZ       squares
	JMP       lanesdone

absolutes:
	MOVQ         $0x7fffffffffffffff, R8
	VPBROADCASTQ R8, Z5

absloop:
	VCVTPS2PD (SI), Z2
	VCVTPS2PD 32(SI), Z3
	VPANDQ    Z5, Z2, Z2
	VPANDQ    Z5, Z3, Z3
	VADDPD    Z2, Z0, Z0
	VADDPD    Z3, Z1, Z1
	ADDQ      $64, SI
	DECQ      CX
	JNZ       absloop

lanesdone:
	VMOVUPD Z0, (DI)
	VMOVUPD Z1, 64(DI)
	VZEROUPPER
	RET

// func writeF32AVX512(x, y *float32, n int, mean, f float64, sc, b *float64, flags int)
//
// y[j] = float32(r) for j < n (a multiple of 8), r = (float64(x[j]) -
// mean) * f (divided by f with bit 3 of flags), then r*sc and r+b where flags has bit 0 (scale) and bit 1
// (bias): sc[j] and b[j] with bit 2 (per element), else *sc and *b for
// every j. Each step rounded in float64, as writeRow and writeUniform do.
TEXT ·writeF32AVX512(SB), NOSPLIT, $0-64
	MOVQ         x+0(FP), SI
	MOVQ         y+8(FP), DI
	MOVQ         n+16(FP), CX
	VBROADCASTSD mean+24(FP), Z4
	VBROADCASTSD f+32(FP), Z5
	MOVQ         sc+40(FP), R8
	MOVQ         b+48(FP), R9
	MOVQ         flags+56(FP), BX
	XORQ         AX, AX
	TESTQ        $4, BX
	JNZ          perelement
	TESTQ        $1, BX
	JZ           2(PC)
	VBROADCASTSD (R8), Z6
	TESTQ        $2, BX
	JZ           2(PC)
	VBROADCASTSD (R9), Z7
	CMPQ         BX, $3
	JEQ          u16scalebias
	CMPQ         BX, $2
	JEQ          u16bias
	JMP          uniform

	// Sixteen at a time for a scale and a bias (InstanceNormalization,
	// GroupNormalization) or a bias alone (BatchNormalization's affine
	// map, mean 0), then eight at a time.
u16scalebias:
	LEAQ      16(AX), R10
	CMPQ      R10, CX
	JA        uniform
	VCVTPS2PD (SI)(AX*4), Z2
	VCVTPS2PD 32(SI)(AX*4), Z3
	VSUBPD    Z4, Z2, Z2
	VSUBPD    Z4, Z3, Z3
	VMULPD    Z5, Z2, Z2
	VMULPD    Z5, Z3, Z3
	VMULPD    Z6, Z2, Z2
	VMULPD    Z6, Z3, Z3
	VADDPD    Z7, Z2, Z2
	VADDPD    Z7, Z3, Z3
	VCVTPD2PS Z2, Y2
	VCVTPD2PS Z3, Y3
	VMOVUPS   Y2, (DI)(AX*4)
	VMOVUPS   Y3, 32(DI)(AX*4)
	MOVQ      R10, AX
	JMP       u16scalebias

u16bias:
	LEAQ      16(AX), R10
	CMPQ      R10, CX
	JA        uniform
	VCVTPS2PD (SI)(AX*4), Z2
	VCVTPS2PD 32(SI)(AX*4), Z3
	VSUBPD    Z4, Z2, Z2
	VSUBPD    Z4, Z3, Z3
	VMULPD    Z5, Z2, Z2
	VMULPD    Z5, Z3, Z3
	VADDPD    Z7, Z2, Z2
	VADDPD    Z7, Z3, Z3
	VCVTPD2PS Z2, Y2
	VCVTPD2PS Z3, Y3
	VMOVUPS   Y2, (DI)(AX*4)
	VMOVUPS   Y3, 32(DI)(AX*4)
	MOVQ      R10, AX
	JMP       u16bias

uniform:
	CMPQ      AX, CX
	JAE       writedone
	VCVTPS2PD (SI)(AX*4), Z2
	VSUBPD    Z4, Z2, Z2
	TESTQ     $8, BX
	JNZ       3(PC)
	VMULPD    Z5, Z2, Z2
	JMP       2(PC)
	VDIVPD    Z5, Z2, Z2
	TESTQ     $1, BX
	JZ        2(PC)
	VMULPD    Z6, Z2, Z2
	TESTQ     $2, BX
	JZ        2(PC)
	VADDPD    Z7, Z2, Z2
	VCVTPD2PS Z2, Y3
	VMOVUPS   Y3, (DI)(AX*4)
	ADDQ      $8, AX
	JMP       uniform

perelement:
	CMPQ      AX, CX
	JAE       writedone
	VCVTPS2PD (SI)(AX*4), Z2
	VSUBPD    Z4, Z2, Z2
	VMULPD    Z5, Z2, Z2
	TESTQ     $1, BX
	JZ        2(PC)
	VMULPD    (R8)(AX*8), Z2, Z2
	TESTQ     $2, BX
	JZ        2(PC)
	VADDPD    (R9)(AX*8), Z2, Z2
	VCVTPD2PS Z2, Y3
	VMOVUPS   Y3, (DI)(AX*4)
	ADDQ      $8, AX
	JMP       perelement

writedone:
	VZEROUPPER
	RET

// func rowsF32AVX512(x, y *float32, rows, n int, eps float64, sc, b *float64, flags int, st *[3]*float64)
//
// Normalizes rows contiguous rows of n float32 (n >= 1) from x into y, as
// momentsF32 and normalizeRowF32 (per element) do one row at a time: the
// mean (none with bit 4 of flags, RMS) and the mean square of the
// deviations in sixteen float64 lanes (Z0 lanes 0-7, Z1 8-15) folded by
// halves, the factor 1/sqrt(var+eps), then each element (x-mean)*f, times
// sc[j] (bit 0), plus b[j] (bit 1), rounded once to float32. A row's tail
// (n%16 for the sums, n%8 for the writes) goes through masks K1, K2
// (merging: a lane left out is not touched) and K3, so a call serves rows
// of any length. st holds where to store each row's mean, variance and
// factor (nil: not stored), advanced by a row.
TEXT ·rowsF32AVX512(SB), NOSPLIT, $0-72
	MOVQ n+24(FP), CX
	ANDQ $15, CX
	MOVQ $1, AX
	SHLQ CX, AX
	DECQ AX
	KMOVW AX, K1
	SHRQ $8, AX
	KMOVW AX, K2
	MOVQ n+24(FP), CX
	ANDQ $7, CX
	MOVQ $1, AX
	SHLQ CX, AX
	DECQ AX
	KMOVW AX, K3

	MOVQ       x+0(FP), SI
	MOVQ       y+8(FP), DI
	MOVQ       rows+16(FP), R10
	MOVQ       n+24(FP), CX
	MOVQ       sc+40(FP), R8
	MOVQ       b+48(FP), R9
	MOVQ       flags+56(FP), BX
	MOVQ       st+64(FP), DX
	MOVQ       0(DX), R11  // means
	MOVQ       8(DX), R12  // variances
	MOVQ       16(DX), DX  // factors
	VCVTSI2SDQ CX, X8, X8  // n as float64
	VMOVSD     eps+32(FP), X9
	MOVQ       $0x3ff0000000000000, AX
	VMOVQ      AX, X10     // 1.0
	MOVQ       CX, R13
	ANDQ       $-16, R13   // the whole sixteens
	MOVQ       CX, R14
	ANDQ       $-8, R14    // the whole eights

rowloop:
	TESTQ R10, R10
	JZ    rowsdone

	// The mean: zero for RMS.
	VXORPD Z4, Z4, Z4
	TESTQ  $16, BX
	JNZ    squares
	VXORPD Z0, Z0, Z0
	VXORPD Z1, Z1, Z1
	XORQ   AX, AX

sumloop:
	CMPQ      AX, R13
	JAE       sumtail
	VCVTPS2PD (SI)(AX*4), Z2
	VCVTPS2PD 32(SI)(AX*4), Z3
	VADDPD    Z2, Z0, Z0
	VADDPD    Z3, Z1, Z1
	ADDQ      $16, AX
	JMP       sumloop

sumtail:
	CMPQ        AX, CX
	JAE         sumfold
	VCVTPS2PD.Z (SI)(AX*4), K1, Z2
	VCVTPS2PD.Z 32(SI)(AX*4), K2, Z3
	VADDPD      Z2, Z0, K1, Z0
	VADDPD      Z3, Z1, K2, Z1

sumfold:
	VADDPD        Z1, Z0, Z0
	VEXTRACTF64X4 $1, Z0, Y1
	VADDPD        Y1, Y0, Y0
	VEXTRACTF128  $1, Y0, X1
	VADDPD        X1, X0, X0
	VPERMILPD     $1, X0, X1
	VADDSD        X1, X0, X0
	VDIVSD        X8, X0, X0
	VBROADCASTSD  X0, Z4

	// The mean of the squared deviations d*d, d = x - mean.
squares:
	VXORPD Z0, Z0, Z0
	VXORPD Z1, Z1, Z1
	XORQ   AX, AX

sqloop:
	CMPQ      AX, R13
	JAE       sqtail
	VCVTPS2PD (SI)(AX*4), Z2
	VCVTPS2PD 32(SI)(AX*4), Z3
	VSUBPD    Z4, Z2, Z2
	VSUBPD    Z4, Z3, Z3
	VMULPD    Z2, Z2, Z2
	VMULPD    Z3, Z3, Z3
	VADDPD    Z2, Z0, Z0
	VADDPD    Z3, Z1, Z1
	ADDQ      $16, AX
	JMP       sqloop

sqtail:
	CMPQ        AX, CX
	JAE         sqfold
	VCVTPS2PD.Z (SI)(AX*4), K1, Z2
	VCVTPS2PD.Z 32(SI)(AX*4), K2, Z3
	VSUBPD      Z4, Z2, Z2
	VSUBPD      Z4, Z3, Z3
	VMULPD      Z2, Z2, Z2
	VMULPD      Z3, Z3, Z3
	VADDPD      Z2, Z0, K1, Z0
	VADDPD      Z3, Z1, K2, Z1

sqfold:
	VADDPD        Z1, Z0, Z0
	VEXTRACTF64X4 $1, Z0, Y1
	VADDPD        Y1, Y0, Y0
	VEXTRACTF128  $1, Y0, X1
	VADDPD        X1, X0, X0
	VPERMILPD     $1, X0, X1
	VADDSD        X1, X0, X0
	VDIVSD        X8, X0, X0 // the variance
	VADDSD        X9, X0, X1
	VSQRTSD       X1, X1, X1
	VDIVSD        X1, X10, X5 // the factor 1/sqrt(var+eps)

	TESTQ  R11, R11
	JZ     3(PC)
	VMOVSD X4, (R11)
	ADDQ   $8, R11
	TESTQ  R12, R12
	JZ     3(PC)
	VMOVSD X0, (R12)
	ADDQ   $8, R12
	TESTQ  DX, DX
	JZ     3(PC)
	VMOVSD X5, (DX)
	ADDQ   $8, DX
	VBROADCASTSD X5, Z5

	// The elements, sixteen at a time for a scale and a bias or a scale
	// alone (LayerNormalization, RMSNormalization), then eight at a time.
	XORQ AX, AX
	MOVQ BX, R15
	ANDQ $3, R15
	CMPQ R15, $1
	JEQ  w16scale
	CMPQ R15, $3
	JNE  wloop

w16loop:
	LEAQ      16(AX), R15
	CMPQ      R15, CX
	JA        wloop
	VCVTPS2PD (SI)(AX*4), Z2
	VCVTPS2PD 32(SI)(AX*4), Z3
	VSUBPD    Z4, Z2, Z2
	VSUBPD    Z4, Z3, Z3
	VMULPD    Z5, Z2, Z2
	VMULPD    Z5, Z3, Z3
	VMULPD    (R8)(AX*8), Z2, Z2
	VMULPD    64(R8)(AX*8), Z3, Z3
	VADDPD    (R9)(AX*8), Z2, Z2
	VADDPD    64(R9)(AX*8), Z3, Z3
	VCVTPD2PS Z2, Y2
	VCVTPD2PS Z3, Y3
	VMOVUPS   Y2, (DI)(AX*4)
	VMOVUPS   Y3, 32(DI)(AX*4)
	MOVQ      R15, AX
	JMP       w16loop

w16scale:
	LEAQ      16(AX), R15
	CMPQ      R15, CX
	JA        wloop
	VCVTPS2PD (SI)(AX*4), Z2
	VCVTPS2PD 32(SI)(AX*4), Z3
	VSUBPD    Z4, Z2, Z2
	VSUBPD    Z4, Z3, Z3
	VMULPD    Z5, Z2, Z2
	VMULPD    Z5, Z3, Z3
	VMULPD    (R8)(AX*8), Z2, Z2
	VMULPD    64(R8)(AX*8), Z3, Z3
	VCVTPD2PS Z2, Y2
	VCVTPD2PS Z3, Y3
	VMOVUPS   Y2, (DI)(AX*4)
	VMOVUPS   Y3, 32(DI)(AX*4)
	MOVQ      R15, AX
	JMP       w16scale

wloop:
	CMPQ      AX, R14
	JAE       wtail
	VCVTPS2PD (SI)(AX*4), Z2
	VSUBPD    Z4, Z2, Z2
	VMULPD    Z5, Z2, Z2
	TESTQ     $1, BX
	JZ        2(PC)
	VMULPD    (R8)(AX*8), Z2, Z2
	TESTQ     $2, BX
	JZ        2(PC)
	VADDPD    (R9)(AX*8), Z2, Z2
	VCVTPD2PS Z2, Y3
	VMOVUPS   Y3, (DI)(AX*4)
	ADDQ      $8, AX
	JMP       wloop

wtail:
	CMPQ        AX, CX
	JAE         nextrow
	VCVTPS2PD.Z (SI)(AX*4), K3, Z2
	VSUBPD      Z4, Z2, Z2
	VMULPD      Z5, Z2, Z2
	TESTQ       $1, BX
	JZ          2(PC)
	VMULPD      (R8)(AX*8), Z2, K3, Z2
	TESTQ       $2, BX
	JZ          2(PC)
	VADDPD      (R9)(AX*8), Z2, K3, Z2
	VCVTPD2PS   Z2, Y3
	VMOVUPS     Y3, K3, (DI)(AX*4)

nextrow:
	LEAQ (SI)(CX*4), SI
	LEAQ (DI)(CX*4), DI
	DECQ R10
	JMP  rowloop

rowsdone:
	VZEROUPPER
	RET

// func lpRowsF32AVX512(x, y *float32, rows, n, p int)
//
// LpNormalizes rows contiguous rows of n float32 (n >= 1) from x into y,
// as lpNormalizeRowF32 does one row at a time: the row's norm, the sum of
// |float64(x)| (p 1) or the square root of the sum of the rounded
// float64(x)*float64(x) (p 2), in sixteen float64 lanes folded by halves,
// then each element float64(x)/norm rounded to float32; a row whose norm
// is 0 gives zeros. Tails under masks K1, K2 (sums) and K3 (writes) as in
// rowsF32AVX512.
TEXT ·lpRowsF32AVX512(SB), NOSPLIT, $0-40
	MOVQ n+24(FP), CX
	ANDQ $15, CX
	MOVQ $1, AX
	SHLQ CX, AX
	DECQ AX
	KMOVW AX, K1
	SHRQ $8, AX
	KMOVW AX, K2
	MOVQ n+24(FP), CX
	ANDQ $7, CX
	MOVQ $1, AX
	SHLQ CX, AX
	DECQ AX
	KMOVW AX, K3

	MOVQ         x+0(FP), SI
	MOVQ         y+8(FP), DI
	MOVQ         rows+16(FP), R10
	MOVQ         n+24(FP), CX
	MOVQ         p+32(FP), BX
	MOVQ         CX, R13
	ANDQ         $-16, R13
	MOVQ         CX, R14
	ANDQ         $-8, R14
	MOVQ         $0x7fffffffffffffff, R8
	VPBROADCASTQ R8, Z6
	VXORPD       Z7, Z7, Z7

lprow:
	TESTQ  R10, R10
	JZ     lpdone
	VXORPD Z0, Z0, Z0
	VXORPD Z1, Z1, Z1
	XORQ   AX, AX
	CMPQ   BX, $1
	JEQ    lpabs

lpsq:
	CMPQ      AX, R13
	JAE       lpsqtail
	VCVTPS2PD (SI)(AX*4), Z2
	VCVTPS2PD 32(SI)(AX*4), Z3
	VMULPD    Z2, Z2, Z2
	VMULPD    Z3, Z3, Z3
	VADDPD    Z2, Z0, Z0
	VADDPD    Z3, Z1, Z1
	ADDQ      $16, AX
	JMP       lpsq

lpsqtail:
	CMPQ        AX, CX
	JAE         lpfold
	VCVTPS2PD.Z (SI)(AX*4), K1, Z2
	VCVTPS2PD.Z 32(SI)(AX*4), K2, Z3
	VMULPD      Z2, Z2, Z2
	VMULPD      Z3, Z3, Z3
	VADDPD      Z2, Z0, K1, Z0
	VADDPD      Z3, Z1, K2, Z1
	JMP         lpfold

lpabs:
	CMPQ      AX, R13
	JAE       lpabstail
	VCVTPS2PD (SI)(AX*4), Z2
	VCVTPS2PD 32(SI)(AX*4), Z3
	VPANDQ    Z6, Z2, Z2
	VPANDQ    Z6, Z3, Z3
	VADDPD    Z2, Z0, Z0
	VADDPD    Z3, Z1, Z1
	ADDQ      $16, AX
	JMP       lpabs

lpabstail:
	CMPQ        AX, CX
	JAE         lpfold
	VCVTPS2PD.Z (SI)(AX*4), K1, Z2
	VCVTPS2PD.Z 32(SI)(AX*4), K2, Z3
	VPANDQ      Z6, Z2, Z2
	VPANDQ      Z6, Z3, Z3
	VADDPD      Z2, Z0, K1, Z0
	VADDPD      Z3, Z1, K2, Z1

lpfold:
	VADDPD        Z1, Z0, Z0
	VEXTRACTF64X4 $1, Z0, Y1
	VADDPD        Y1, Y0, Y0
	VEXTRACTF128  $1, Y0, X1
	VADDPD        X1, X0, X0
	VPERMILPD     $1, X0, X1
	VADDSD        X1, X0, X0
	CMPQ          BX, $1
	JEQ           2(PC)
	VSQRTSD       X0, X0, X0
	XORQ          AX, AX
	VUCOMISD      X7, X0
	JP            lpwrite
	JNE           lpwrite

lpzero:
	CMPQ    AX, R14
	JAE     lpzerotail
	VMOVUPS Y7, (DI)(AX*4)
	ADDQ    $8, AX
	JMP     lpzero

lpzerotail:
	CMPQ    AX, CX
	JAE     lpnext
	VMOVUPS Y7, K3, (DI)(AX*4)
	JMP     lpnext

lpwrite:
	VBROADCASTSD X0, Z5

lpwloop:
	CMPQ      AX, R14
	JAE       lpwtail
	VCVTPS2PD (SI)(AX*4), Z2
	VDIVPD    Z5, Z2, Z2
	VCVTPD2PS Z2, Y3
	VMOVUPS   Y3, (DI)(AX*4)
	ADDQ      $8, AX
	JMP       lpwloop

lpwtail:
	CMPQ        AX, CX
	JAE         lpnext
	VCVTPS2PD.Z (SI)(AX*4), K3, Z2
	VDIVPD      Z5, Z2, Z2
	VCVTPD2PS   Z2, Y3
	VMOVUPS     Y3, K3, (DI)(AX*4)

lpnext:
	LEAQ (SI)(CX*4), SI
	LEAQ (DI)(CX*4), DI
	DECQ R10
	JMP  lprow

lpdone:
	VZEROUPPER
	RET
