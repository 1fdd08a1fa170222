package window

import "math"

// Max2D writes the maximum of every window of one plane (w is As2D) into
// out, as MaxPool defines it when no Indices output is asked for: a window
// holding a NaN gives its first NaN (row-major over the window), ties go to
// the first maximum (which tells -0 from +0), and a window without a real
// element gives -inf. The value written is bit for bit an element of in.
//
// The maxima are taken with the builtin max, which is exact for any other
// window; a window whose maximum is a zero or a NaN is walked again in
// order to pick the first one.
func Max2D[A float32 | float64](in, out []A, w *Windows) {
	inW, outW := w.InStride[0], w.OutShape[1]
	rowStep, colStep := w.TapStride[0], w.TapStride[1]
	cols, colCount := w.First[1], w.Count[1]
	for oh, r0 := range w.First[0] {
		nh := w.Count[0][oh]
		o := out[oh*outW : (oh+1)*outW]
		base := r0 * inW
		switch {
		case nh == 2 && colStep == 1:
			row0, row1 := in[base:base+inW], in[base+rowStep:base+rowStep+inW]
			for ow := range o {
				c := cols[ow]
				if colCount[ow] == 2 {
					o[ow] = max(row0[c], row0[c+1], row1[c], row1[c+1])
				} else {
					o[ow] = maxTaps(in, base+c, 2, colCount[ow], rowStep, 1)
				}
			}
		case nh == 3 && colStep == 1:
			row0 := in[base : base+inW]
			row1 := in[base+rowStep : base+rowStep+inW]
			row2 := in[base+2*rowStep : base+2*rowStep+inW]
			for ow := range o {
				c := cols[ow]
				if colCount[ow] == 3 {
					o[ow] = max(max(row0[c], row0[c+1], row0[c+2]), max(row1[c], row1[c+1], row1[c+2]), max(row2[c], row2[c+1], row2[c+2]))
				} else {
					o[ow] = maxTaps(in, base+c, 3, colCount[ow], rowStep, 1)
				}
			}
		default:
			for ow := range o {
				o[ow] = maxTaps(in, base+cols[ow], nh, colCount[ow], rowStep, colStep)
			}
		}
		for ow, v := range o {
			if v == 0 || v != v {
				o[ow] = firstMax(in, base+cols[ow], nh, colCount[ow], rowStep, colStep)
			}
		}
	}
}

// maxTaps is the builtin max over nh x nw taps from off, -inf for none.
func maxTaps[A float32 | float64](in []A, off, nh, nw, rowStep, colStep int) A {
	m := A(math.Inf(-1))
	for i := range nh {
		r := off + i*rowStep
		for j := range nw {
			m = max(m, in[r+j*colStep])
		}
	}
	return m
}

// firstMax is the first maximum in row-major order over nh x nw taps from
// off, a NaN above everything and the first NaN kept; -inf for none.
func firstMax[A float32 | float64](in []A, off, nh, nw, rowStep, colStep int) A {
	m, seen := A(math.Inf(-1)), false
	for i := range nh {
		r := off + i*rowStep
		for j := range nw {
			v := in[r+j*colStep]
			if !seen || v > m || (v != v && m == m) {
				m, seen = v, true
			}
		}
	}
	return m
}
