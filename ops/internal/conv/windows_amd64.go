//go:build amd64 && !purego

package conv

import "unsafe"

// windowRows32AVX512 writes rows rows of 32 float32 lanes, dstStride
// bytes apart from dst: each zero but the lanes the segments load from
// the image row at src (srcStride bytes further at each row). Segment s
// loads lane i, for each bit i of its mask, from src + off + 4i, with
// masked loads that touch no lane outside the mask.
//
//go:noescape
func windowRows32AVX512(dst *float32, dstStride int, src *float32, srcStride int, rows int, segs *wseg, nseg int)

// vecWindows says the window panels of 32 columns and stride 1 are
// written by windowRows32AVX512 (tests turn it off to run the Go path).
var vecWindows = haveAVX512

func windowRows32(dst []float32, dstStride int, src unsafe.Pointer, srcStride, rows int, segs []wseg) {
	var s *wseg
	if len(segs) > 0 {
		s = &segs[0]
	}
	windowRows32AVX512(&dst[0], dstStride*4, (*float32)(src), srcStride*4, rows, s, len(segs))
}
