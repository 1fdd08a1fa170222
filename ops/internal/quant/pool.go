package quant

// The rows of an 8-bit MaxPool (ops' QDQ MaxPool, run on the quantized
// values: qdqpool.go): the maxima of a window's rows, then of each
// window's columns; on amd64 with AVX-512 (not under purego) pool_amd64.s
// does 64 bytes (32 windows) a step, the Go loops the rest.

// MaxInto writes dst[i] = max(dst[i], src[i]), int8 when signed.
func MaxInto(dst, src []byte, signed bool) {
	src = src[:len(dst)]
	v := maxIntoVector(dst, src, signed)
	if signed {
		for i := v; i < len(dst); i++ {
			if int8(src[i]) > int8(dst[i]) {
				dst[i] = src[i]
			}
		}
		return
	}
	for i := v; i < len(dst); i++ {
		dst[i] = max(dst[i], src[i])
	}
}

// MaxWindows writes dst[j] = the maximum of src[j*stride + q*dil] over q
// in [0, taps), int8 when signed.
func MaxWindows(dst, src []byte, taps, dil, stride int, signed bool) {
	v := maxWindowsVector(dst, src, taps, dil, stride, signed)
	for j := v; j < len(dst); j++ {
		at := j * stride
		m := src[at]
		for q := 1; q < taps; q++ {
			s := src[at+q*dil]
			if (signed && int8(s) > int8(m)) || (!signed && s > m) {
				m = s
			}
		}
		dst[j] = m
	}
}
