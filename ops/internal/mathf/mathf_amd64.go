//go:build amd64 && !purego

package mathf

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// haveAVX2 reports a processor (and an operating system) with AVX2 and
// FMA, which
// the loops of mathf_amd64.s need (integer lanes, fused multiply-adds).
var haveAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// The slice loops: the AVX2 loop for the bulk, a multiple of 8 elements,
// the Go loop for the rest and on processors without AVX2.

func sigmoids(o, a []float32) {
	m := 0
	if haveAVX2 {
		if m = len(o) &^ 7; m > 0 {
			sigmoidsAVX2(unsafe.Pointer(&o[0]), unsafe.Pointer(&a[0]), m, avxConsts)
		}
	}
	sigmoidsGo(o[m:], a[m:])
}

func tanhs(o, a []float32) {
	m := 0
	if haveAVX2 {
		if m = len(o) &^ 7; m > 0 {
			tanhsAVX2(unsafe.Pointer(&o[0]), unsafe.Pointer(&a[0]), m, avxConsts)
		}
	}
	tanhsGo(o[m:], a[m:])
}

func erfs(o, a []float32) {
	m := 0
	if haveAVX2 {
		if m = len(o) &^ 7; m > 0 {
			erfsAVX2(unsafe.Pointer(&o[0]), unsafe.Pointer(&a[0]), m, avxConsts)
		}
	}
	erfsGo(o[m:], a[m:])
}
