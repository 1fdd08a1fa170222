//go:build amd64 && !purego

package conv

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// windowRows32AVX512 writes rows rows of 32 float32 lanes, dstStride
// bytes apart from dst: each zero but the lanes the segments load from
// the image row at src (srcStride bytes further at each row). Segment s
// loads lane i, for each bit i of its mask, from src + off + 4i, with
// masked loads that touch no lane outside the mask.
//
//go:noescape
func windowRows32AVX512(dst *float32, dstStride int, src *float32, srcStride int, rows int, segs *wseg, nseg int)

// windowRows32S2AVX512 is windowRows32AVX512 for a stride of 2 along the
// row: segment s loads lane i, for each bit i of its mask, from src + off
// + 8i.
//
//go:noescape
func windowRows32S2AVX512(dst *float32, dstStride int, src *float32, srcStride int, rows int, segs *wseg, nseg int)

// vecWindows says the window panels of 32 columns and stride 1 are
// written by windowRows32AVX512, and vecWindows2 those of stride 2 by
// windowRows32S2AVX512 (tests turn them off to run the Go path).
var (
	vecWindows  = haveAVX512
	vecWindows2 = haveAVX512 && cpu.X86.HasBMI2
)

// windowRows32 writes rows panel rows of 32 lanes, the segments' lanes
// from the image rows at src (srcStride elements apart), the stride along
// the row 1 or 2.
func windowRows32(dst []float32, dstStride int, src unsafe.Pointer, srcStride, rows int, segs []wseg, stride int) {
	var s *wseg
	if len(segs) > 0 {
		s = &segs[0]
	}
	if stride == 2 {
		windowRows32S2AVX512(&dst[0], dstStride*4, (*float32)(src), srcStride*4, rows, s, len(segs))
		return
	}
	windowRows32AVX512(&dst[0], dstStride*4, (*float32)(src), srcStride*4, rows, s, len(segs))
}
