package quant

import "math"

// The requantization of QLinearConv and QLinearMatMul: an int32 sum s of
// 8-bit products (plus an int32 bias, wrapping) to an 8-bit output under a
// multiplier mult (x_scale*w_scale/y_scale, computed by the caller in the
// scales' type) and the output's zero point:
//
//	y = saturate(round_half_even(float64(s+bias)*mult + zero))
//
// the product and the sum rounded apart in float64 (no fused
// multiply-add), as the ONNX reference evaluator's numpy computes them;
// saturate clips to [lo, hi], the output type's range; a NaN (a NaN or
// infinite multiplier times 0) gives 0. The output byte is the int32's low
// byte (int8 or uint8 alike). On amd64 with AVX-512 (not under purego),
// vector_amd64.s does sixteen elements a step with the same operations
// (clipping before rounding to an integer bound is the same as after),
// whenever the multipliers are finite; the Go loop does the rest.

// requantOne is one element.
func requantOne(s int32, mult, zero, lo, hi float64) byte {
	v := math.RoundToEven(float64(float64(s)*mult) + zero)
	switch {
	case v != v:
		v = 0
	case v < lo:
		v = lo
	case v > hi:
		v = hi
	}
	return byte(int(v))
}

// Range returns the bounds of the 8-bit type, int8 when signed.
func Range(signed bool) (lo, hi float64) {
	if signed {
		return -128, 127
	}
	return 0, 255
}

// Requantize writes out[i] from acc[i]+bias with one multiplier.
func Requantize(out []byte, acc []int32, bias int32, mult, zero float64, signed bool) {
	lo, hi := Range(signed)
	RequantizeClip(out, acc, bias, mult, zero, lo, hi)
}

// RequantizeClip is Requantize saturating to [lo, hi], integers within
// the output type's range: a Relu before the QuantizeLinear raises lo to
// the zero point, the same as clipping Requantize's output there.
func RequantizeClip(out []byte, acc []int32, bias int32, mult, zero, lo, hi float64) {
	acc = acc[:len(out)]
	v := requantVector(out, acc, bias, mult, zero, lo, hi)
	for i, s := range acc[v:] {
		out[v+i] = requantOne(s+bias, mult, zero, lo, hi)
	}
}

// RequantizeCols writes out[i] from acc[i] with multiplier mults[i].
func RequantizeCols(out []byte, acc []int32, mults []float64, zero float64, signed bool) {
	lo, hi := Range(signed)
	acc, mults = acc[:len(out)], mults[:len(out)]
	v := requantColsVector(out, acc, mults, zero, lo, hi)
	for i, s := range acc[v:] {
		out[v+i] = requantOne(s, mults[v+i], zero, lo, hi)
	}
}
