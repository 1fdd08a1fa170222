// Package dynquant is the engine of DynamicQuantizeLinear: the range scan
// of a float32 tensor (its minimum and maximum, widened to hold 0, and
// whether every element is finite) and its quantization to uint8 with a
// scale and zero point, y = clamp(roundToEven(x / scale) + zero, 0, 255),
// every step in float32 as the ONNX reference evaluator computes it.
//
// On amd64 with AVX2 both run eight lanes at a time (dynquant_amd64.s):
// VMINPS/VMAXPS for the range, VDIVPS, VROUNDPS (to nearest even),
// VADDPS, the clamp and VCVTTPS2DQ for the quantization (sixteen lanes
// with AVX-512, VRNDSCALEPS for the rounding): the same IEEE
// float32 operations as the Go loops, in the same order, so the results
// are bit for bit those of the Go loops (the tests compare them). The
// purego tag and other platforms run the Go loops.
//
// Only DynamicQuantizeLinear uses it. It never writes into its source,
// never allocates (the caller sizes and charges the destination), and
// never checks an operator's rules: the caller refuses a non-finite x
// (Range reports the first one) before quantizing.
package dynquant

// Range returns min(0, min x) and max(0, max x), and the index of the
// first element of x that is NaN or an infinity (-1 when there is none;
// lo and hi mean nothing then).
func Range(x []float32) (lo, hi float32, bad int) {
	n := rangeVector(x, &lo, &hi)
	if n < 0 {
		return 0, 0, firstNonFinite(x)
	}
	// finite tracks x-x over the tail: 0 for every finite x, NaN for NaN
	// and the infinities, and a NaN sum stays NaN.
	var finite float32
	for _, f := range x[n:] {
		finite += f - f
		if f < lo {
			lo = f
		}
		if f > hi {
			hi = f
		}
	}
	if finite != 0 {
		return 0, 0, firstNonFinite(x)
	}
	return lo, hi, -1
}

func firstNonFinite(x []float32) int {
	for i, f := range x {
		if f-f != 0 {
			return i
		}
	}
	return -1
}

// Quantize writes y[i] = clamp(roundToEven(x[i]/scale) + zero, 0, 255)
// for every i, in float32. x must be finite, scale positive and finite,
// zero an integer in [0, 255]; y at least as long as x.
func Quantize(y []byte, x []float32, scale, zero float32) {
	y = y[:len(x)]
	n := quantizeVector(y, x, scale, zero)
	quantizeGo(y[n:], x[n:], scale, zero)
}

// quantizeGo is Quantize's plain loop, which the vector one reproduces.
func quantizeGo(y []byte, x []float32, scale, zero float32) {
	y = y[:len(x)]
	for i, f := range x {
		q := roundToEven(f/scale) + zero
		if q < 0 {
			q = 0
		}
		if q > 255 {
			q = 255
		}
		y[i] = byte(q)
	}
}

// roundToEven rounds a finite float32 to the nearest integer, ties to
// even; every float32 of magnitude 2^23 or more is already an integer.
func roundToEven(f float32) float32 {
	const big = 1 << 23
	switch {
	case f >= big || f <= -big:
		return f
	case f >= 0:
		return (f + big) - big
	}
	return -((-f + big) - big)
}
