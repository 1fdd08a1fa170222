//go:build amd64 && !purego

package convert

import "golang.org/x/sys/cpu"

var (
	haveAVX2   = cpu.X86.HasAVX2
	haveAVX512 = cpu.X86.HasAVX512F
)

//go:noescape
func f32sToI32sAVX2(d *uint32, s *float32, n int) int

//go:noescape
func f32sToI16sAVX2(d *uint16, s *float32, n int) int

//go:noescape
func f32sToI8sAVX2(d *uint8, s *float32, n int) int

//go:noescape
func f32sToI32sAVX512(d *uint32, s *float32, n int) int

//go:noescape
func f32sToI16sAVX512(d *uint16, s *float32, n int) int

//go:noescape
func f32sToI8sAVX512(d *uint8, s *float32, n int) int

// f32sToI32sVector converts the longest prefix of s it can, sixteen at a
// time with AVX-512 and eight with AVX2 (for the last eight, or for all
// without AVX-512), and returns its length; it stops before a block that holds a value
// the vector conversion does not give as floatToInt does.
func f32sToI32sVector(d []uint32, s []float32) int {
	n := len(s) &^ 7
	if !haveAVX2 || n == 0 {
		return 0
	}
	_ = d[n-1]
	m := 0
	if haveAVX512 {
		if m = n &^ 15; m > 0 {
			if k := f32sToI32sAVX512(&d[0], &s[0], m); k < m {
				return k
			}
		}
	}
	if m == n {
		return m
	}
	return m + f32sToI32sAVX2(&d[m], &s[m], n-m)
}

// f32sToNarrowVector is f32sToI32sVector for 8- and 16-bit targets: the
// low bits of the same int32.
func f32sToNarrowVector[D uint8 | uint16](d []D, s []float32) int {
	n := len(s) &^ 7
	if !haveAVX2 || n == 0 {
		return 0
	}
	_ = d[n-1]
	m := 0
	if haveAVX512 {
		m = n &^ 15
	}
	switch d := any(d).(type) {
	case []uint8:
		if m > 0 {
			if k := f32sToI8sAVX512(&d[0], &s[0], m); k < m {
				return k
			}
		}
		if m < n {
			m += f32sToI8sAVX2(&d[m], &s[m], n-m)
		}
		return m
	case []uint16:
		if m > 0 {
			if k := f32sToI16sAVX512(&d[0], &s[0], m); k < m {
				return k
			}
		}
		if m < n {
			m += f32sToI16sAVX2(&d[m], &s[m], n-m)
		}
		return m
	}
	return 0
}
