//go:build amd64 && !purego

package window

import "golang.org/x/sys/cpu"

// maxRowsAVX2 sets dst[j] to the larger of a[j] and b[j] for j < n (a
// multiple of 8), a NaN (some NaN, not a chosen one) where either is a NaN.
//
//go:noescape
func maxRowsAVX2(dst, a, b *float32, n int)

// maxPairsAVX2 sets dst[i] to the largest of src[2i] and src[2i+1] for i
// < n (a multiple of 8), a NaN where one is a NaN, and reports whether an
// output is a zero or a NaN.
//
//go:noescape
func maxPairsAVX2(dst, src *float32, n int) (special bool)

// maxTriplesAVX2 sets dst[i] to the largest of src[2i], src[2i+1] and
// src[2i+2] for i < n (a multiple of 8), a NaN where one is a NaN, and
// reports whether an output is a zero or a NaN. It reads src up to
// src[2n+1].
//
//go:noescape
func maxTriplesAVX2(dst, src *float32, n int) (special bool)

// haveMaxAVX2 picks the vector loops (tests turn it off to reach the Go
// ones).
var haveMaxAVX2 = cpu.X86.HasAVX2

// maxRows is dst[j] = max(a[j], b[j]) with a NaN wherever one is a NaN.
func maxRows(dst, a, b []float32) {
	n := len(dst) &^ 7
	if !haveMaxAVX2 {
		n = 0
	}
	if n > 0 {
		_, _ = a[n-1], b[n-1]
		maxRowsAVX2(&dst[0], &a[0], &b[0], n)
	}
	maxRowsGo(dst[n:], a[n:len(dst)], b[n:len(dst)])
}

// maxStride2 is dst[i] = the maximum of src[2i : 2i+k] (k is 2 or 3), a
// NaN wherever one is a NaN, and reports whether an output is a zero or a
// NaN; src holds at least 2*len(dst)+k-1 elements (the vector loop for k =
// 3 reads one more, or leaves the last eight outputs to the Go loop).
func maxStride2(dst, src []float32, k int) (special bool) {
	n := len(dst) &^ 7
	if k == 3 && n > 0 && len(src) < 2*n+2 {
		n -= 8
	}
	if !haveMaxAVX2 {
		n = 0
	}
	if n > 0 {
		if k == 2 {
			_ = src[2*n-1]
			special = maxPairsAVX2(&dst[0], &src[0], n)
		} else {
			_ = src[2*n+1]
			special = maxTriplesAVX2(&dst[0], &src[0], n)
		}
	}
	return maxStrideGo(dst[n:], src[2*n:], k, 2) || special
}
