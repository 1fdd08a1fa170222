package clamp

// Float32 writes src limited to [lo, hi] into dst (len(dst) >= len(src)).
func Float32(dst, src []float32, lo, hi float32) {
	dst = dst[:len(src)]
	i := float32sVector(dst, src, lo, hi)
	for ; i < len(src); i++ {
		x := src[i]
		if x < lo {
			x = lo
		}
		if x > hi {
			x = hi
		}
		dst[i] = x
	}
}

// Float64 writes src limited to [lo, hi] into dst (len(dst) >= len(src)).
func Float64(dst, src []float64, lo, hi float64) {
	dst = dst[:len(src)]
	i := float64sVector(dst, src, lo, hi)
	for ; i < len(src); i++ {
		x := src[i]
		if x < lo {
			x = lo
		}
		if x > hi {
			x = hi
		}
		dst[i] = x
	}
}
