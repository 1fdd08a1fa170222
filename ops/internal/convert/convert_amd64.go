//go:build amd64 && !purego

package convert

import (
	"unsafe"

	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"golang.org/x/sys/cpu"
)

// haveF16C reports a processor with F16C's float16 conversions (and the
// AVX they are encoded in).
var haveF16C = cpu.X86.HasF16C && cpu.X86.HasAVX

//go:noescape
func f16sToF32sF16C(d *uint32, s *uint16, n int)

// haveF16CAVX2: the widening loop also fixes NaNs with AVX2 integer ops.
var haveF16CAVX2 = haveF16C && cpu.X86.HasAVX2

// f16sToF32sVector widens the longest prefix of s it can to float32 in d,
// sixteen at a time where the processor has F16C and AVX2, and returns its
// length.
func f16sToF32sVector(d []uint32, s []uint16) int {
	n := len(s) &^ 15
	if !haveF16CAVX2 || n == 0 {
		return 0
	}
	_ = d[n-1]
	f16sToF32sF16C(&d[0], &s[0], n)
	return n
}

//go:noescape
func f32sToF16sF16C(d *uint16, s *uint32, n int)

//go:noescape
func f32sToF16sF16CStream(d *uint16, s *uint32, n int)

// f16StreamFrom is the output size (bytes) from which f32sToF16sVector
// writes with streaming stores: past the share of the cache one part of a
// large Cast can keep.
const f16StreamFrom = 1 << 20

// f32sToF16sVector rounds the longest prefix of s it can to float16 in d,
// sixteen at a time where the processor has F16C, and returns its length.
func f32sToF16sVector(d []uint16, s []uint32) int {
	n := len(s) &^ 15
	if !haveF16C || n == 0 {
		return 0
	}
	_ = d[n-1]
	if 2*n >= f16StreamFrom && uintptr(unsafe.Pointer(&d[0]))%16 == 0 {
		f32sToF16sF16CStream(&d[0], &s[0], n)
		movement.StoreFence()
		return n
	}
	f32sToF16sF16C(&d[0], &s[0], n)
	return n
}

// f16AlignHead is how many elements of d come before its first 16-byte
// boundary when d is long enough to be written with streaming stores,
// which need that alignment; 0 otherwise.
func f16AlignHead(d []uint16) int {
	if !haveF16C || 2*len(d) < f16StreamFrom {
		return 0
	}
	a := uintptr(unsafe.Pointer(&d[0])) % 16
	if a%2 != 0 {
		return 0
	}
	return int((16 - a) % 16 / 2)
}
