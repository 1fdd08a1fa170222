//go:build amd64 && !purego

package ops

import "golang.org/x/sys/cpu"

// haveF16C reports a processor with F16C's float16 conversions (and the
// AVX they are encoded in).
var haveF16C = cpu.X86.HasF16C && cpu.X86.HasAVX

//go:noescape
func f32sToF16sF16C(d *uint16, s *uint32, n int)

// f32sToF16sVector rounds the longest prefix of s it can to float16 in d,
// sixteen at a time where the processor has F16C, and returns its length.
func f32sToF16sVector(d []uint16, s []uint32) int {
	n := len(s) &^ 15
	if !haveF16C || n == 0 {
		return 0
	}
	_ = d[n-1]
	f32sToF16sF16C(&d[0], &s[0], n)
	return n
}
