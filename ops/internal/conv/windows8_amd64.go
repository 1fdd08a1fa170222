//go:build amd64 && !purego

package conv

import "golang.org/x/sys/cpu"

// windowQuads8AVX512 writes quads quads of one 32-column panel of the
// 8-bit windows (windows8_amd64.s states the layout).
//
//go:noescape
func windowQuads8AVX512(dst *byte, img *byte, offs *int32, quads int, segs *wseg, nseg int)

// vecWindows8 says the 8-bit window panels are written by
// windowQuads8AVX512 (tests turn it off to run the Go path).
var vecWindows8 = cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VL

// windowQuads8 is windowQuads8AVX512 on slices the caller has checked.
func windowQuads8(dst []byte, img []byte, offs []int32, segs []wseg) {
	windowQuads8AVX512(&dst[0], &img[0], &offs[0], len(offs)/4, &segs[0], len(segs))
}
