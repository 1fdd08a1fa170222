//go:build amd64 && !purego

package convert

import "golang.org/x/sys/cpu"

var haveAVX2 = cpu.X86.HasAVX2

//go:noescape
func f32sToI32sAVX2(d *uint32, s *float32, n int) int

//go:noescape
func f32sToI16sAVX2(d *uint16, s *float32, n int) int

//go:noescape
func f32sToI8sAVX2(d *uint8, s *float32, n int) int

// f32sToI32sVector converts the longest prefix of s it can, eight at a
// time, and returns its length; it stops before a block that holds a value
// the vector conversion does not give as floatToInt does.
func f32sToI32sVector(d []uint32, s []float32) int {
	n := len(s) &^ 7
	if !haveAVX2 || n == 0 {
		return 0
	}
	_ = d[n-1]
	return f32sToI32sAVX2(&d[0], &s[0], n)
}

// f32sToNarrowVector is f32sToI32sVector for 8- and 16-bit targets: the
// low bits of the same int32.
func f32sToNarrowVector[D uint8 | uint16](d []D, s []float32) int {
	n := len(s) &^ 7
	if !haveAVX2 || n == 0 {
		return 0
	}
	_ = d[n-1]
	switch d := any(d).(type) {
	case []uint8:
		return f32sToI8sAVX2(&d[0], &s[0], n)
	case []uint16:
		return f32sToI16sAVX2(&d[0], &s[0], n)
	}
	return 0
}
