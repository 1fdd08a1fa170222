//go:build amd64 && !purego

package dynquant

import "golang.org/x/sys/cpu"

var (
	haveAVX2   = cpu.X86.HasAVX2
	haveAVX512 = cpu.X86.HasAVX512F
)

//go:noescape
func rangeAVX2(x *float32, n int, lo, hi *[8]float32) (finite bool)

//go:noescape
func quantizeAVX512(y *byte, x *float32, n int, scale, zero float32)

//go:noescape
func quantizeAVX2(y *byte, x *float32, n int, scale, zero float32)

// rangeVector scans the longest prefix of x that is a multiple of 16
// elements into lo and hi (both starting at 0) and returns its length,
// or -1 when that prefix holds a NaN or an infinity.
func rangeVector(x []float32, lo, hi *float32) int {
	n := len(x) &^ 15
	if !haveAVX2 || n == 0 {
		return 0
	}
	var l, h [8]float32
	if !rangeAVX2(&x[0], n, &l, &h) {
		return -1
	}
	for i := range l {
		if l[i] < *lo {
			*lo = l[i]
		}
		if h[i] > *hi {
			*hi = h[i]
		}
	}
	// VMINPS may keep a -0 where the Go loop keeps the +0 it started
	// from; adding +0 makes either +0.
	*lo += 0
	*hi += 0
	return n
}

// quantizeVector quantizes the longest prefix of x that is a multiple of
// 8 elements and returns its length.
func quantizeVector(y []byte, x []float32, scale, zero float32) int {
	n := len(x) &^ 7
	if !haveAVX2 || n == 0 {
		return 0
	}
	_ = y[n-1]
	if n16 := n &^ 15; haveAVX512 && n16 > 0 {
		quantizeAVX512(&y[0], &x[0], n16, scale, zero)
		if n16 == n {
			return n
		}
		quantizeAVX2(&y[n16], &x[n16], n-n16, scale, zero)
		return n
	}
	quantizeAVX2(&y[0], &x[0], n, scale, zero)
	return n
}
