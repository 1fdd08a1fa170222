//go:build amd64 && !purego

#include "textflag.h"

// func pairs32AVX(dst, src *uint32, n int)
// For n a multiple of 8: dst[2i] = dst[2i+1] = src[i]. Per eight source
// elements, VUNPCKLPS/VUNPCKHPS pair each element with itself within the
// 128-bit lanes and VPERM2F128 puts the lanes back in order: two 32-byte
// stores.
TEXT ·pairs32AVX(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX
	JZ   done

loop:
	VMOVUPS    (SI), Y0
	VUNPCKLPS  Y0, Y0, Y1
	VUNPCKHPS  Y0, Y0, Y2
	VPERM2F128 $0x20, Y2, Y1, Y3
	VPERM2F128 $0x31, Y2, Y1, Y4
	VMOVUPS    Y3, (DI)
	VMOVUPS    Y4, 32(DI)
	ADDQ       $32, SI
	ADDQ       $64, DI
	DECQ       CX
	JNZ        loop

done:
	VZEROUPPER
	RET
