//go:build amd64 && !purego

package convert

import "unsafe"

//go:noescape
func f32sToF64sAVX2(d, s unsafe.Pointer, n int)

//go:noescape
func f64sToF32sAVX2(d, s unsafe.Pointer, n int)

//go:noescape
func i32sToI64sAVX2(d, s unsafe.Pointer, n int)

// widenVector converts the longest prefix of s that is a multiple of 16
// elements from float32 to float64, float64 to float32 or int32 to int64
// with widen_amd64.s, the bits of Go's conversions, and returns its
// length; 0 for the other pairs or without AVX2.
func widenVector[D, S float32 | float64 | int32 | int64](d []D, s []S) int {
	n := len(s) &^ 15
	if !haveAVX2 || n == 0 {
		return 0
	}
	_ = d[n-1]
	dp, sp := unsafe.Pointer(&d[0]), unsafe.Pointer(&s[0])
	switch any(s).(type) {
	case []float32:
		if _, ok := any(d).([]float64); ok {
			f32sToF64sAVX2(dp, sp, n)
			return n
		}
	case []float64:
		if _, ok := any(d).([]float32); ok {
			f64sToF32sAVX2(dp, sp, n)
			return n
		}
	case []int32:
		if _, ok := any(d).([]int64); ok {
			i32sToI64sAVX2(dp, sp, n)
			return n
		}
	}
	return 0
}
