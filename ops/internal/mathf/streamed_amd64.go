//go:build amd64 && !purego

package mathf

import "unsafe"

// An ntKernel is one of the streamed AVX-512 loops (mathf_avx512_amd64.s):
// n a multiple of 16, o 64-byte aligned.
type ntKernel func(o, a unsafe.Pointer, n int, c *[nConsts][8]float32, p *[4][8]float32)

var (
	kernelExpsNT      ntKernel = expsAVX512NT
	kernelSigmoidsNT  ntKernel = sigmoidsAVX512NT
	kernelTanhsNT     ntKernel = tanhsAVX512NT
	kernelErfsNT      ntKernel = erfsAVX512NT
	kernelSoftsignsNT ntKernel = softsignsAVX512NT
)

// streamedTo runs the streamed loop nt over the part of o that starts at
// a 64-byte boundary and is a multiple of 16 long, plain over the head
// before it and the tail after it (the same bits either way).
func streamedTo(o, a []float32, plain func(o, a []float32), nt ntKernel) {
	if !haveAVX512 || len(o) < 64 {
		plain(o, a)
		return
	}
	h := (64 - int(uintptr(unsafe.Pointer(&o[0]))%64)) % 64 / 4
	plain(o[:h], a[:h])
	m := (len(o) - h) &^ 15
	if m > 0 {
		nt(unsafe.Pointer(&o[h]), unsafe.Pointer(&a[h]), m, avxConsts, nil)
	}
	plain(o[h+m:], a[h+m:])
}
