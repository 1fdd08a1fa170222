package window

// The kernel of AveragePool and LpPool: every window of a plane (the
// geometry of geometry.go, shared with MaxPool) is summed, innermost axis
// first: the taps of each window row are summed from 0 in order, and the
// row sums added from 0 in order, outer axes alike. Average divides the sum
// by the window's real taps (count_include_pad=0) or by its taps inside the
// padded input (count_include_pad=1); Lp sums |x|^p and takes the p-th
// root. Padding adds nothing to either sum.

import (
	"math"
)

// Pool says what a window reduces to.
type Pool struct {
	Lp         bool    // LpPool, else AveragePool
	P          float64 // LpPool's exponent
	IncludePad bool    // AveragePool's count_include_pad
}

// Sum is the sum over the window at output coordinates o of its taps
// along axes k and after, the first at offset off: the innermost axis
// summed first, each sum from 0 in order.
func Sum[A float32 | float64](in []A, w *Windows, o []int, k, off int, wp Pool) A {
	n, step := w.Count[k][o[k]], w.TapStride[k]
	var s A
	if k == len(o)-1 {
		if wp.Lp {
			for t := range n {
				s += A(math.Pow(math.Abs(float64(in[off+t*step])), wp.P))
			}
			return s
		}
		for t := range n {
			s += in[off+t*step]
		}
		return s
	}
	for t := range n {
		s += Sum(in, w, o, k+1, off+t*step, wp)
	}
	return s
}

// Pool2D pools one plane over windows of one or two spatial axes (w
// is As2D) in two passes that add in the same order as Sum: the sum
// of each window's taps along every input row, then, for each output row,
// those row sums down the window's rows. rowSums and terms are scratch,
// grown as needed and returned.
func Pool2D[A float32 | float64](in, out []A, w *Windows, divisors [][]float64, wp Pool, rowSums, terms []A) ([]A, []A) {
	inH, inW, outW := w.InShape[0], w.InShape[1], w.OutShape[1]
	if cap(rowSums) < inH*outW {
		rowSums = make([]A, inH*outW)
	}
	rowSums = rowSums[:inH*outW]
	if wp.Lp {
		if cap(terms) < len(in) {
			terms = make([]A, len(in))
		}
		terms = terms[:len(in)]
		if t32, ok := any(terms).([]float32); ok && wp.P == 2 {
			// The float64 square of a float32 is exact (48 significant
			// bits), and math.Pow(a, 2) gives it; rounded to float32 it is
			// the float32 product v*v, one rounding of the same value (a
			// NaN may keep another payload, which no check tells apart).
			for i, v := range any(in).([]float32) {
				t32[i] = v * v
			}
		} else {
			for i, v := range in {
				terms[i] = A(math.Pow(math.Abs(float64(v)), wp.P))
			}
		}
		in = terms
	}
	cols, counts, step := w.First[1], w.Count[1], w.TapStride[1]
	for r := range inH {
		row, sums := in[r*inW:(r+1)*inW], rowSums[r*outW:(r+1)*outW]
		for ow := range sums {
			c, n := cols[ow], counts[ow]
			var s A
			switch {
			case n == 2 && step == 1: // the loop below, unrolled for 2x2 and 3x3
				t := row[c : c+2]
				s += t[0]
				s += t[1]
			case n == 3 && step == 1:
				t := row[c : c+3]
				s += t[0]
				s += t[1]
				s += t[2]
			default:
				for t := range n {
					s += row[c+t*step]
				}
			}
			sums[ow] = s
		}
	}
	divH, divW := []float64{1}, divisors[len(divisors)-1]
	if len(divisors) == 2 {
		divH = divisors[0]
	}
	for oh, r0 := range w.First[0] {
		o := out[oh*outW : (oh+1)*outW]
		clear(o)
		for t := range w.Count[0][oh] {
			r := r0 + t*w.Dilation[0]
			for ow, v := range rowSums[r*outW : (r+1)*outW] {
				o[ow] += v
			}
		}
		if wp.Lp {
			for ow, s := range o {
				o[ow] = A(math.Pow(float64(s), 1/wp.P))
			}
			continue
		}
		for ow := range o {
			o[ow] /= A(1 * divH[oh] * divW[ow])
		}
	}
	return rowSums, terms
}
