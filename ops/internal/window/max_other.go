//go:build !amd64 || purego

package window

// haveMaxAVX2 is false here: there are only the Go loops.
var haveMaxAVX2 = false

// maxRows is dst[j] = max(a[j], b[j]) with a NaN wherever one is a NaN,
// and reports whether no a[j] or b[j] is a NaN or a -0 (maxRowsGo).
func maxRows(dst, a, b []float32) bool { return maxRowsGo(dst, a[:len(dst)], b[:len(dst)]) }

// maxStride2 is dst[i] = the maximum of src[2i : 2i+k], a NaN wherever one
// is a NaN, and reports whether an output is a zero or a NaN.
func maxStride2(dst, src []float32, k int) bool { return maxStrideGo(dst, src, k, 2) }
