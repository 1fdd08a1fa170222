//go:build amd64 && !purego

package mathf

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// haveAVX2 reports a processor (and an operating system) with AVX2 and
// FMA, which the loops of mathf_amd64.s need (integer lanes, fused
// multiply-adds); haveAVX512 one with AVX512F and AVX512DQ besides, for
// the loops of mathf_avx512_amd64.s (16 lanes, the same bits). Tests turn
// haveAVX512 off to check the AVX2 loops on a processor that has both.
var (
	haveAVX2   = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	haveAVX512 = haveAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ
)

// The slice loops: the AVX-512 loop for the bulk, a multiple of 16
// elements, the AVX2 loop for the next multiple of 8, the Go loop for the
// rest and on processors without AVX2.

func sigmoids(o, a []float32) {
	m := 0
	if haveAVX512 {
		if m = len(o) &^ 15; m > 0 {
			sigmoidsAVX512(unsafe.Pointer(&o[0]), unsafe.Pointer(&a[0]), m, avxConsts)
		}
	}
	if haveAVX2 {
		if k := (len(o) - m) &^ 7; k > 0 {
			sigmoidsAVX2(unsafe.Pointer(&o[m]), unsafe.Pointer(&a[m]), k, avxConsts)
			m += k
		}
	}
	sigmoidsGo(o[m:], a[m:])
}

func tanhs(o, a []float32) {
	m := 0
	if haveAVX512 {
		if m = len(o) &^ 15; m > 0 {
			tanhsAVX512(unsafe.Pointer(&o[0]), unsafe.Pointer(&a[0]), m, avxConsts)
		}
	}
	if haveAVX2 {
		if k := (len(o) - m) &^ 7; k > 0 {
			tanhsAVX2(unsafe.Pointer(&o[m]), unsafe.Pointer(&a[m]), k, avxConsts)
			m += k
		}
	}
	tanhsGo(o[m:], a[m:])
}

func erfs(o, a []float32) {
	m := 0
	if haveAVX512 {
		if m = len(o) &^ 15; m > 0 {
			erfsAVX512(unsafe.Pointer(&o[0]), unsafe.Pointer(&a[0]), m, avxConsts)
		}
	}
	if haveAVX2 {
		if k := (len(o) - m) &^ 7; k > 0 {
			erfsAVX2(unsafe.Pointer(&o[m]), unsafe.Pointer(&a[m]), k, avxConsts)
			m += k
		}
	}
	erfsGo(o[m:], a[m:])
}
