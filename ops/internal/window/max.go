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
//
// s is the row scratch of the float32 loops, kept by the caller across
// planes (its size is fixed, whatever the input); nil takes a new one.
func Max2D[A float32 | float64](in, out []A, w *Windows, s *MaxScratch) {
	if f, ok := any(in).([]float32); ok && max2DF32(f, any(out).([]float32), w, s) {
		return
	}
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

// maxRowBuf bounds the input rows max2DF32 takes: the column maxima of one
// output row live in a MaxScratch of this many float32 (and a margin that
// the vector loops may read), nothing that grows with the input.
const maxRowBuf = 2048

// MaxScratch is the row of column maxima of Max2D's float32 loops.
type MaxScratch struct{ row []float32 }

// NewMaxScratch returns the scratch of Max2D over the planes of w (As2D):
// a row of the input and the loops' margin, at most maxRowBuf+16 float32.
func NewMaxScratch(w *Windows) *MaxScratch {
	return &MaxScratch{row: make([]float32, min(w.InStride[0], maxRowBuf)+16)}
}

// max2DF32 is Max2D over float32 planes whose windows are contiguous along
// a row (dilation 1 there) and whose rows hold at most maxRowBuf elements,
// and reports whether it did it. For each output row, the maxima down the
// window's rows are taken for the whole input row (vector loops), then the
// maxima across each window of that row of maxima (vector loops for
// kernels of 2 and 3 at stride 2, the interior windows). Both propagate a
// NaN as some NaN; a window whose maximum is a NaN or a zero is walked
// again in order by firstMax, so every value written is Max2D's, bit for
// bit (the maximum of a window is exact, and any other value than a zero
// or NaN has a single bit pattern).
func max2DF32(in, out []float32, w *Windows, s *MaxScratch) bool {
	inW, outW := w.InStride[0], w.OutShape[1]
	rowStep := w.TapStride[0]
	if w.TapStride[1] != 1 || inW > maxRowBuf || inW < 1 {
		return false
	}
	cols, colCount := w.First[1], w.Count[1]
	// The interior windows: full (the largest count), one stride apart.
	kw := 0
	for _, c := range colCount {
		kw = max(kw, c)
	}
	a, b := -1, -1
	for ow, c := range colCount {
		if c == kw {
			if a < 0 {
				a = ow
			}
			b = ow + 1
		}
	}
	vector := (kw == 2 || kw == 3) && b-a >= 8
	if vector {
		for ow := a; ow < b; ow++ {
			if colCount[ow] != kw || cols[ow] != cols[a]+2*(ow-a) {
				vector = false
				break
			}
		}
	}
	if s == nil || len(s.row) < inW+16 {
		s = NewMaxScratch(w)
	}
	buf := s.row
	negInf := float32(math.Inf(-1))
	// whole: the edge windows too are stride-2 windows of kw, cut by the
	// row's ends (the pads), so that the vector loop takes the whole row
	// of maxima laid in buf between -inf margins (max's identity: the
	// same bits, zeros and NaNs being fixed after as everywhere). A small
	// plane (3x3 stride 2 pad 1 on 16x16: 7 interior windows, fewer than
	// a vector) then takes no scalar window at all.
	whole, padL, start := (kw == 2 || kw == 3) && a >= 0, 0, 0
	if whole {
		st0 := cols[a] - 2*a // where window 0 starts, maybe in the pad
		for ow, c := range colCount {
			st := st0 + 2*ow
			lo, hi := max(st, 0), min(st+kw, inW)
			if c != max(hi-lo, 0) || (c > 0 && cols[ow] != lo) {
				whole = false
				break
			}
		}
		padL = max(0, -st0)
		start = padL + st0
		// The triples' loop reads two past its last window.
		if whole && (padL > 8 || start+2*outW+2 > len(buf)) {
			whole = false
		}
	}
	if whole {
		for i := range padL {
			buf[i] = negInf
		}
		for i := padL + inW; i < start+2*outW+2; i++ {
			buf[i] = negInf
		}
	}
	for oh, r0 := range w.First[0] {
		nh := w.Count[0][oh]
		o := out[oh*outW : (oh+1)*outW]
		if nh == 0 {
			for i := range o {
				o[i] = negInf
			}
			continue
		}
		base := r0 * inW
		var vm, src []float32
		// clean: no element of the window rows is a NaN or a -0, so every
		// zero the loops write is the +0 firstMax would pick.
		clean := true
		from := 0 // where src holds window a's first element
		if a >= 0 {
			from = cols[a]
		}
		switch {
		case whole:
			vm = buf[padL : padL+inW]
			if nh == 1 {
				copy(vm, in[base:base+inW])
				clean = cleanRow(vm)
			} else {
				clean = maxRows(vm, in[base:base+inW], in[base+rowStep:base+rowStep+inW])
			}
			for i := 2; i < nh; i++ {
				r := base + i*rowStep
				clean = maxRows(vm, vm, in[r:r+inW]) && clean
			}
			src, from = buf, start
		case nh == 1:
			vm, src = in[base:base+inW], in[base:]
			clean = cleanRow(vm)
		default:
			vm = buf[:inW]
			clean = maxRows(vm, in[base:base+inW], in[base+rowStep:base+rowStep+inW])
			for i := 2; i < nh; i++ {
				r := base + i*rowStep
				clean = maxRows(vm, vm, in[r:r+inW]) && clean
			}
			src = buf[:]
		}
		// Zeros and NaNs are looked for at the edges, and in the interior
		// only when the loops saw one; not at all in a clean row (after a
		// Relu most windows hold a zero, all of them +0).
		switch {
		case whole:
			if maxStride2(o, src[from:], kw) && !clean {
				fixZeroNaN(o, 0, outW, in, base, cols, colCount, nh, rowStep)
			}
		case vector:
			special := maxStride2(o[a:b], src[from:], kw)
			rowMaxima(o[:a], vm, cols, colCount)
			rowMaxima(o[b:], vm, cols[b:], colCount[b:])
			if clean {
				break
			}
			if special {
				fixZeroNaN(o, 0, outW, in, base, cols, colCount, nh, rowStep)
			} else {
				fixZeroNaN(o, 0, a, in, base, cols, colCount, nh, rowStep)
				fixZeroNaN(o, b, outW, in, base, cols, colCount, nh, rowStep)
			}
		default:
			rowMaxima(o, vm, cols, colCount)
			if !clean {
				fixZeroNaN(o, 0, outW, in, base, cols, colCount, nh, rowStep)
			}
		}
	}
	return true
}

// maxRowsGo is dst[j] = max(a[j], b[j]) (the builtin max: a NaN wins), and
// reports whether no a[j] or b[j] is a NaN or a -0.
func maxRowsGo(dst, a, b []float32) (clean bool) {
	a, b = a[:len(dst)], b[:len(dst)]
	clean = true
	for j := range dst {
		x, y := a[j], b[j]
		dst[j] = max(x, y)
		clean = clean && isPlain(x) && isPlain(y)
	}
	return clean
}

// negZeroBits is the bit pattern of -0.
const negZeroBits = 0x80000000

// isPlain reports whether v is neither a NaN nor a -0: a value whose
// maximum with others needs no reread in order.
func isPlain(v float32) bool { return v == v && math.Float32bits(v) != negZeroBits }

// cleanRow reports whether no element of x is a NaN or a -0.
func cleanRow(x []float32) bool {
	for _, v := range x {
		if !isPlain(v) {
			return false
		}
	}
	return true
}

// maxStrideGo is dst[i] = the builtin max of src[s*i : s*i+k], and
// reports whether an output is a zero or a NaN.
func maxStrideGo(dst, src []float32, k, s int) (special bool) {
	for i := range dst {
		m := src[s*i]
		for _, v := range src[s*i+1 : s*i+k] {
			m = max(m, v)
		}
		dst[i] = m
		special = special || m == 0 || m != m
	}
	return special
}

// rowMaxima is out[i] = the builtin max of vm[cols[i] : cols[i]+count[i]],
// -inf for none.
func rowMaxima(out, vm []float32, cols, count []int) {
	cols, count = cols[:len(out)], count[:len(out)]
	for i := range out {
		// The 2- and 3-wide windows of the common kernels unrolled, in
		// the loop's order (-inf is max's identity: the same bits).
		c := cols[i]
		switch count[i] {
		case 1:
			out[i] = vm[c]
		case 3:
			v := vm[c : c+3 : c+3]
			out[i] = max(max(v[0], v[1]), v[2])
		case 2:
			v := vm[c : c+2 : c+2]
			out[i] = max(v[0], v[1])
		default:
			m := float32(math.Inf(-1))
			for _, v := range vm[c : c+count[i]] {
				m = max(m, v)
			}
			out[i] = m
		}
	}
}

// fixZeroNaN sets the outputs o[lo:hi] that are a zero or a NaN to
// firstMax of their windows (nh rows from in[base], rowStep apart). Where
// the maximum is a zero, firstMax is the window's first zero (the first
// element equal to the maximum; zeros of both signs compare equal and no
// NaN is there, or the maximum would be one): the walk stops at it, which
// after a ReLU is most often the window's first element.
func fixZeroNaN(o []float32, lo, hi int, in []float32, base int, cols, count []int, nh, rowStep int) {
	for ow := lo; ow < hi; ow++ {
		switch v := o[ow]; {
		case v == 0:
			o[ow] = firstZero(in, base+cols[ow], nh, count[ow], rowStep)
		case v != v:
			o[ow] = firstMax(in, base+cols[ow], nh, count[ow], rowStep, 1)
		}
	}
}

// firstZero is the first zero of the window of nh rows of nw elements from
// in[off], rowStep apart, in firstMax's order; +0 if it has none (not
// reached: it is called for windows whose maximum is a zero).
func firstZero(in []float32, off, nh, nw, rowStep int) float32 {
	for i := range nh {
		for _, v := range in[off+i*rowStep : off+i*rowStep+nw] {
			if v == 0 {
				return v
			}
		}
	}
	return 0
}
