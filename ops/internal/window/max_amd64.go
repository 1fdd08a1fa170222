//go:build amd64 && !purego

package window

import "golang.org/x/sys/cpu"

// maxRowsAVX2 sets dst[j] to the larger of a[j] and b[j] for j < n (a
// multiple of 8), a NaN (some NaN, not a chosen one) where either is a NaN,
// and reports whether no a[j] or b[j] is a NaN or a -0.
//
//go:noescape
func maxRowsAVX2(dst, a, b *float32, n int) (clean bool)

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

// maxRows is dst[j] = max(a[j], b[j]) with a NaN wherever one is a NaN,
// and reports whether no a[j] or b[j] is a NaN or a -0 (maxRowsGo). dst
// may be a (the running maximum of a window's rows), never b.
//
// A row of 8 or more that is not a multiple of 8 ends with one vector
// over its last 8 elements, overlapping the loop's last block: taking the
// maximum again of a maximum and the same b gives the same bits (both
// zeros: VMAXPS's second operand, b; a NaN: all ones again), so that no
// element goes through the Go loop.
func maxRows(dst, a, b []float32) (clean bool) {
	m := len(dst)
	a, b = a[:m], b[:m]
	if !haveMaxAVX2 || m < 8 {
		return maxRowsGo(dst, a, b)
	}
	n := m &^ 7
	clean = maxRowsAVX2(&dst[0], &a[0], &b[0], n)
	if n < m {
		clean = maxRowsAVX2(&dst[m-8], &a[m-8], &b[m-8], 8) && clean
	}
	return clean
}

// maxStride2 is dst[i] = the maximum of src[2i : 2i+k] (k is 2 or 3), a
// NaN wherever one is a NaN, and reports whether an output is a zero or a
// NaN; src holds at least 2*len(dst)+k-1 elements (the vector loop for k =
// 3 reads one more, or leaves the last eight outputs to the Go loop).
//
// As maxRows, a length of 8 or more that is not a multiple of 8 ends with
// one vector over the last 8 outputs (the same values written again).
func maxStride2(dst, src []float32, k int) (special bool) {
	m := len(dst)
	if !haveMaxAVX2 || m < 8 {
		return maxStrideGo(dst, src, k, 2)
	}
	// Triples read src[2i+k] one past the window of the last output i.
	fits := func(end int) bool { return k == 2 || len(src) >= 2*end+2 }
	n := m &^ 7
	if !fits(n) {
		n -= 8
	}
	if n > 0 {
		special = maxStride2AVX2(dst, src, k, 0, n)
	}
	switch {
	case n == m:
	case n+8 >= m && fits(m):
		special = maxStride2AVX2(dst, src, k, m-8, 8) || special
	default:
		special = maxStrideGo(dst[n:], src[2*n:], k, 2) || special
	}
	return special
}

// maxStride2AVX2 is maxStride2 of the outputs [i, i+n) by the vector loops
// (n a multiple of 8, src long enough for them).
func maxStride2AVX2(dst, src []float32, k, i, n int) bool {
	_ = dst[i+n-1]
	if k == 2 {
		_ = src[2*(i+n)-1]
		return maxPairsAVX2(&dst[i], &src[2*i], n)
	}
	_ = src[2*(i+n)+1]
	return maxTriplesAVX2(&dst[i], &src[2*i], n)
}
