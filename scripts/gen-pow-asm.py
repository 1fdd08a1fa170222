#!/usr/bin/env python3
# Writes ops/internal/mathf/pow_amd64.s and pow_consts_amd64.go: the vector
# loops of Pow's float32 power (ops/internal/mathf/pow.go), the same float64
# operations as the scalar mathf.Pow, in the same order (every product
# rounded before it is added: a VMULPD then a VADDPD, never a fused
# multiply-add), so that the bits agree. Each iteration takes 8 float32
# bases and 8 exponents: the bit work on the base (subnormal scaling, the
# interval index i, the binary exponent k, z) on the 8 float32 lanes of a
# Y register, then the float64 steps (the log2 polynomial, y*log2|x|, the
# exp2 polynomial and its table) on 8 float64 lanes of a Z register in the
# AVX-512 loop, on two halves of 4 lanes of Y registers in the AVX2 loop,
# the tables read by gathers; the signs, NaNs and x = 1 are blended back
# on the float32 lanes. A vector holding a lane the loops do not compute
# (a zero or infinite base, an infinite exponent, an integral exponent of
# magnitude at most 16 or ±0.5, whose results come from mathf.Pow's other
# branches) stops the loop: it returns how many elements it wrote, and the
# Go side (pow_amd64.go) computes that vector with mathf.Pow and calls the
# loop again. The constants come from a table built in Go from the scalar
# code's own (pow_consts_amd64.go), one 32-byte row each, the tables after
# them. Run from the repository root:
#   python3 scripts/gen-pow-asm.py && gofmt -w ops/internal/mathf/

D = 'ops/internal/mathf/'

# float32 rows: (name, uint32 Go expression)
c32 = [
    ('absMask', '1<<31 - 1'), ('signBit', '1 << 31'), ('minNormal', '1 << 23'),
    ('two23', 'math.Float32bits(0x1p23)'), ('neg23', '0xffffffe9'), ('zOff', '0x3f330000'),
    ('fifteen', '15'), ('topMask', '0xff800000'), ('inf', '0x7f800000'),
    ('sixteen', 'math.Float32bits(powMaxInt)'), ('half', 'math.Float32bits(0.5)'),
    ('one32', 'math.Float32bits(1)'), ('nan', '0x7fc00000'),
]
# float64 rows: (name, uint64 Go expression)
c64 = [('one', 'math.Float64bits(1)')] + [
    ('logP%d' % i, 'math.Float64bits(powLogP[%d])' % i) for i in range(6)] + [
    ('expP%d' % i, 'math.Float64bits(powExpP[%d])' % i) for i in range(4)] + [
    ('shift', 'math.Float64bits(powShift)'), ('tMax', 'math.Float64bits(129)'),
    ('tMin', 'math.Float64bits(-151)'), ('low5', '31'), ('high59', '^uint64(31)'),
]
rows = [n for n, _ in c32] + [n for n, _ in c64]
idx = {n: i for i, n in enumerate(rows)}
tabInvC = 32 * len(rows)
tabLogC = tabInvC + 16 * 8
tabExp2 = tabLogC + 16 * 8


def C(name):
    return '%d(DX)' % (32 * idx[name])


# The float32 part, common to both loops (256-bit AVX2 instructions): x in
# Y0, y in Y1; jumps to stop when a lane needs mathf.Pow's other branches;
# leaves z's bits in Y2, k in Y3 and i in Y15 (int32 lanes).
pre = f'''	VMOVUPS 0(SI), Y0
	VMOVUPS 0(BX), Y1
	VPAND {C('absMask')}, Y0, Y2
	VPXOR Y3, Y3, Y3
	VPCMPEQD Y3, Y2, Y3
	VPCMPEQD {C('inf')}, Y2, Y4
	VPOR Y4, Y3, Y3
	VPAND {C('absMask')}, Y1, Y4
	VCMPPS $0, {C('inf')}, Y4, Y5
	VPOR Y5, Y3, Y3
	VCMPPS $0, {C('half')}, Y4, Y5
	VPOR Y5, Y3, Y3
	VCMPPS $2, {C('sixteen')}, Y4, Y5
	VROUNDPS $3, Y1, Y6
	VCMPPS $0, Y1, Y6, Y6
	VPAND Y6, Y5, Y5
	VPOR Y5, Y3, Y3
	VPTEST Y3, Y3
	JNZ {{name}}stop
	VMULPS {C('two23')}, Y2, Y3
	VMOVDQU {C('minNormal')}, Y5
	VPCMPGTD Y2, Y5, Y4
	VPBLENDVB Y4, Y3, Y2, Y2
	VPAND {C('neg23')}, Y4, Y4
	VPSUBD {C('zOff')}, Y2, Y3
	VPSRLD $19, Y3, Y15
	VPAND {C('fifteen')}, Y15, Y15
	VPAND {C('topMask')}, Y3, Y3
	VPSUBD Y3, Y2, Y2
	VPSRAD $23, Y3, Y3
	VPADDD Y4, Y3, Y3
'''

# The float32 part after the power: the result's 8 float32 in Y2; a
# negative base to an odd integer negates it, to a non-integral exponent
# gives NaN; a NaN in gives NaN, x = 1 gives 1 (even for a NaN y); stores.
post = f'''	VROUNDPS $3, Y1, Y3
	VCMPPS $0, Y1, Y3, Y4
	VMULPS {C('half')}, Y1, Y5
	VROUNDPS $3, Y5, Y6
	VCMPPS $4, Y5, Y6, Y5
	VPAND Y4, Y5, Y5
	VPAND {C('signBit')}, Y0, Y6
	VPAND Y5, Y6, Y6
	VPXOR Y6, Y2, Y2
	VPSRAD $31, Y0, Y6
	VPANDN Y6, Y4, Y6
	VBLENDVPS Y6, {C('nan')}, Y2, Y2
	VCMPPS $3, Y1, Y0, Y6
	VBLENDVPS Y6, {C('nan')}, Y2, Y2
	VCMPPS $0, {C('one32')}, Y0, Y6
	VBLENDVPS Y6, {C('one32')}, Y2, Y2
	VMOVUPS Y2, 0(DI)
'''


def chain(V, z, k, i, y, res, w512):
    # The float64 steps on one vector of lanes: z, k, i and y the float32
    # sources (X or Y registers), res the float32 result register. Uses
    # V4-V9 (and K1, or Y10 as the gathers' mask).
    r = ['%s%d' % (V, j) for j in range(4, 10)]
    if w512:
        def bc(op, c, a, d):
            return f'\t{op}.BCST {C(c)}, {a}, {d}\n'

        def bcast(c, d):
            return f'\tVBROADCASTSD {C(c)}, {d}\n'

        def gd(off, ix, d):
            return f'\tKXNORW K1, K1, K1\n\tVGATHERDPD {off}(DX)({ix}*8), K1, {d}\n'

        def gq(off, ix, d):
            return f'\tKXNORW K1, K1, K1\n\tVGATHERQPD {off}(DX)({ix}*8), K1, {d}\n'
        cvtout = 'VCVTPD2PS'
    else:
        def bc(op, c, a, d):
            return f'\t{op} {C(c)}, {a}, {d}\n'

        def bcast(c, d):
            return f'\tVMOVUPD {C(c)}, {d}\n'

        def gd(off, ix, d):
            return f'\tVPCMPEQQ Y10, Y10, Y10\n\tVGATHERDPD Y10, {off}(DX)({ix}*8), {d}\n'

        def gq(off, ix, d):
            return f'\tVPCMPEQQ Y10, Y10, Y10\n\tVGATHERQPD Y10, {off}(DX)({ix}*8), {d}\n'
        cvtout = 'VCVTPD2PSY'
    a0, a1, a2, a3, a4, a5 = r
    s = f'\tVCVTPS2PD {z}, {a0}\n'
    s += gd(tabInvC, i, a1)
    s += f'\tVMULPD {a1}, {a0}, {a0}\n'
    s += bc('VSUBPD', 'one', a0, a0)
    s += bcast('logP5', a2)
    for j in range(4, -1, -1):
        s += f'\tVMULPD {a0}, {a2}, {a2}\n'
        s += bc('VADDPD', 'logP%d' % j, a2, a2)
    s += f'\tVCVTDQ2PD {k}, {a3}\n'
    s += gd(tabLogC, i, a1)
    s += f'\tVADDPD {a1}, {a3}, {a3}\n'
    s += f'\tVMULPD {a0}, {a2}, {a2}\n'
    s += f'\tVADDPD {a2}, {a3}, {a3}\n'
    s += f'\tVCVTPS2PD {y}, {a0}\n'
    s += f'\tVMULPD {a3}, {a0}, {a3}\n'
    s += bc('VMAXPD', 'tMin', a3, a3)
    s += bc('VMINPD', 'tMax', a3, a3)
    s += bc('VADDPD', 'shift', a3, a4)
    s += bc('VPSUBQ', 'shift', a4, a5)
    s += bc('VSUBPD', 'shift', a4, a4)
    s += f'\tVSUBPD {a4}, {a3}, {a3}\n'
    s += bcast('expP3', a2)
    for j in range(2, -1, -1):
        s += f'\tVMULPD {a3}, {a2}, {a2}\n'
        s += bc('VADDPD', 'expP%d' % j, a2, a2)
    s += f'\tVMULPD {a3}, {a2}, {a2}\n'
    s += bc('VPANDQ' if w512 else 'VPAND', 'low5', a5, a4)
    s += gq(tabExp2, a4, a1)
    s += bc('VPANDQ' if w512 else 'VPAND', 'high59', a5, a5)
    s += f'\tVPSLLQ $47, {a5}, {a5}\n'
    s += f'\tVPADDQ {a5}, {a1}, {a1}\n'
    s += f'\tVMULPD {a1}, {a2}, {a2}\n'
    s += f'\tVADDPD {a1}, {a2}, {a2}\n'
    s += f'\t{cvtout} {a2}, {res}\n'
    return s


def loop(name, body):
    return f'''
// func {name}(o, x, y unsafe.Pointer, n int, c *powTable) int
TEXT ·{name}(SB), NOSPLIT, $0-48
	MOVQ o+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), BX
	MOVQ n+24(FP), CX
	MOVQ c+32(FP), DX
	XORQ AX, AX
	SHRQ $3, CX
	JZ   {name}stop
{name}loop:
{pre.replace('{name}', name)}{body}{post}	ADDQ $32, SI
	ADDQ $32, BX
	ADDQ $32, DI
	ADDQ $8, AX
	DECQ CX
	JNZ  {name}loop
{name}stop:
	VZEROUPPER
	MOVQ AX, ret+40(FP)
	RET
'''


avx512 = chain('Z', 'Y2', 'Y3', 'Y15', 'Y1', 'Y2', True)
avx2 = ('''	VEXTRACTI128 $1, Y2, X11
	VEXTRACTI128 $1, Y3, X12
	VEXTRACTI128 $1, Y15, X13
	VEXTRACTI128 $1, Y1, X14
''' + chain('Y', 'X2', 'X3', 'X15', 'X1', 'X15', False)
    + chain('Y', 'X11', 'X12', 'X13', 'X14', 'X4', False)
    + '\tVINSERTI128 $1, X4, Y15, Y2\n')

asm = '''//go:build amd64 && !purego

// Code generated by scripts/gen-pow-asm.py; DO NOT EDIT.

#include "textflag.h"

// The loops of Pows: o[i] = Pow(x[i], y[i]) for up to n elements, n a
// multiple of 8, 8 a vector, stopping before a vector with a lane that
// takes one of Pow's other branches; each returns how many it wrote. c is
// powTable (pow_consts_amd64.go).
''' + loop('powsAVX512', avx512) + loop('powsAVX2', avx2)

with open(D + 'pow_amd64.s', 'w') as f:
    f.write(asm)

go = '''//go:build amd64 && !purego

// Code generated by scripts/gen-pow-asm.py; DO NOT EDIT.

package mathf

import "math"

// powTable is the constant table of pow_amd64.s: rows of 32 bytes, each
// one constant of pow.go in every lane (8 float32 or 4 float64 patterns),
// then the tables powInvC, powLogC and powExp2T.
type powTable struct {
	f32   [%d][8]uint32
	f64   [%d][4]uint64
	invC  [16]float64
	logC  [16]float64
	exp2T [32]float64
}

var powConsts = func() *powTable {
	t := &powTable{invC: powInvC, logC: powLogC, exp2T: powExp2T}
	for i, v := range [...]uint32{
%s	} {
		for j := range t.f32[i] {
			t.f32[i][j] = v
		}
	}
	for i, v := range [...]uint64{
%s	} {
		for j := range t.f64[i] {
			t.f64[i][j] = v
		}
	}
	return t
}()
''' % (len(c32), len(c64), ''.join('\t\t%s, // %s\n' % (e, n) for n, e in c32),
       ''.join('\t\t%s, // %s\n' % (e, n) for n, e in c64))

with open(D + 'pow_consts_amd64.go', 'w') as f:
    f.write(go)
