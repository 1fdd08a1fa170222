package ops

// The fused kernel of Resize's linear and cubic modes for the two innermost
// axes, the planes of an NCHW image: rows along W, columns along H.
//
// The passes of resize_plan.go write every axis to a full-size intermediate
// and read it back. Here each output row is made at once: the input rows its
// H taps name are resampled along W into a small ring of rows (each input
// row once per plane, as consecutive output rows share most of their taps),
// and their weighted sum is the output row. The ring stays in the first
// cache levels, and nothing the size of the tensor is allocated. The sums
// are those of the passes, W first and in the same order, so the values are
// the same to the bit.

// resizeRowFilter is one axis plan in the form the W loops stream: the taps
// of output o are the taps consecutive elements of a row from start[o], in
// the row padded by padLeft copies of its first element and padRight copies
// of its last (the clamping of the plan, without a branch per tap).
type resizeRowFilter[A computeFloat] struct {
	in, out, taps     int
	padLeft, padRight int
	start             []int // per output, in the padded row
	weight            []A   // out*taps
	two               []resizeTwoTaps[A]
	four              []resizeFourTaps[A]
	extrapolate       []int // the outputs tf_crop_and_resize fills
}

// resizeTwoTaps and resizeFourTaps are the taps of one output of a linear
// filter and a cubic (or linear antialias by 1/2) filter: start and weights
// side by side, so the loop reads one record per output.
type resizeTwoTaps[A computeFloat] struct {
	start int
	w     [2]A
}

type resizeFourTaps[A computeFloat] struct {
	start int
	w     [4]A
}

// newResizeRowFilter converts plan a. A start before -(taps-1) reads the
// first element with every tap, as -(taps-1) does, and one after in-1 the
// last: so the padding is less than taps on either side.
func newResizeRowFilter[A computeFloat](a *resizeAxis) *resizeRowFilter[A] {
	f := &resizeRowFilter[A]{in: a.in, out: a.out, taps: a.taps}
	f.start = make([]int, a.out)
	lo, hi := 0, a.in
	for o, s := range a.start {
		if a.extrapolate != nil && a.extrapolate[o] {
			f.extrapolate = append(f.extrapolate, o)
			s = 0 // computed from the first taps, then overwritten
		}
		s = max(-(a.taps - 1), min(a.in-1, s))
		f.start[o] = s
		lo, hi = min(lo, s), max(hi, s+a.taps)
	}
	f.padLeft, f.padRight = -lo, hi-a.in
	for o := range f.start {
		f.start[o] += f.padLeft
	}
	f.weight = make([]A, len(a.weight))
	for i, w := range a.weight {
		f.weight[i] = A(w)
	}
	switch a.taps {
	case 2:
		f.two = make([]resizeTwoTaps[A], a.out)
		for o := range f.two {
			f.two[o] = resizeTwoTaps[A]{f.start[o], [2]A(f.weight[2*o:])}
		}
	case 4:
		f.four = make([]resizeFourTaps[A], a.out)
		for o := range f.four {
			f.four[o] = resizeFourTaps[A]{f.start[o], [4]A(f.weight[4*o:])}
		}
	}
	return f
}

// paddedLen is the length of a padded row.
func (f *resizeRowFilter[A]) paddedLen() int { return f.padLeft + f.in + f.padRight }

// resample writes the f.out elements of row s (f.in elements) resampled into
// d; pad is scratch of paddedLen elements.
func (f *resizeRowFilter[A]) resample(d, s, pad []A, extrapolation A) {
	p := s
	if f.padLeft > 0 || f.padRight > 0 {
		p = pad[:f.paddedLen()]
		first, last := s[0], s[f.in-1]
		for i := range f.padLeft {
			p[i] = first
		}
		copy(p[f.padLeft:], s[:f.in])
		for i := f.padLeft + f.in; i < len(p); i++ {
			p[i] = last
		}
	}
	d = d[:f.out]
	switch {
	case f.two != nil:
		for o, t := range f.two {
			x := p[t.start : t.start+2]
			d[o] = t.w[0]*x[0] + t.w[1]*x[1]
		}
	case f.four != nil:
		for o, t := range f.four {
			x := p[t.start : t.start+4]
			d[o] = t.w[0]*x[0] + t.w[1]*x[1] + t.w[2]*x[2] + t.w[3]*x[3]
		}
	default:
		taps := f.taps
		for o, j := range f.start {
			x, w := p[j:j+taps], f.weight[o*taps:o*taps+taps]
			acc := w[0] * x[0]
			for t := 1; t < taps; t++ {
				acc += w[t] * x[t]
			}
			d[o] = acc
		}
	}
	for _, o := range f.extrapolate {
		d[o] = extrapolation
	}
}

// resizeCombineRows writes into d the weighted sum of rows, in order.
func resizeCombineRows[A computeFloat](d []A, rows [][]A, w []A) {
	n := len(d)
	switch len(rows) {
	case 2:
		r0, r1 := rows[0][:n], rows[1][:n]
		w0, w1 := w[0], w[1]
		for j := range d {
			d[j] = w0*r0[j] + w1*r1[j]
		}
	case 4:
		r0, r1, r2, r3 := rows[0][:n], rows[1][:n], rows[2][:n], rows[3][:n]
		w0, w1, w2, w3 := w[0], w[1], w[2], w[3]
		for j := range d {
			d[j] = w0*r0[j] + w1*r1[j] + w2*r2[j] + w3*r3[j]
		}
	default:
		r0, w0 := rows[0][:n], w[0]
		for j := range d {
			d[j] = w0 * r0[j]
		}
		for t := 1; t < len(rows); t++ {
			r, wt := rows[t][:n], w[t]
			for j := range d {
				d[j] += wt * r[j]
			}
		}
	}
}

// resizePlanes resamples the two innermost axes of src, [planes, h.in,
// w.in], into dst, [planes, h.out, w.out]. Either plan may be the identity
// (nil), not both.
func resizePlanes[A computeFloat](opt *Options, dst, src []A, planes int, h *resizeAxis, w *resizeRowFilter[A], extrapolation A) {
	hin, hout := 1, 1
	if h != nil {
		hin, hout = h.in, h.out
	}
	win, wout := 0, 0
	if w != nil {
		win, wout = w.in, w.out
	} else {
		win = len(src) / (planes * hin)
		wout = win
	}
	taps := 1
	var hw []A
	if h != nil {
		taps = h.taps
		hw = make([]A, len(h.weight))
		for i, v := range h.weight {
			hw[i] = A(v)
		}
	}
	rows := planes * hout
	work := rows * wout * taps
	if w != nil {
		work += planes * hin * wout * w.taps
	}
	_ = parallelRange(opt, rows, work, func(lo, hi int) error {
		// The ring holds resampled input rows: input row r of plane b in
		// slot r%slots, tagged b*hin+r. A window of taps consecutive rows
		// (the most one output row reads) fits without collisions.
		slots := min(taps, hin)
		var ring []A
		var pad []A
		tags := make([]int, slots)
		if w != nil {
			ring = make([]A, slots*wout)
			pad = make([]A, w.paddedLen())
			for i := range tags {
				tags[i] = -1
			}
		}
		rowOf := func(b, r int) []A {
			s := src[(b*hin+r)*win : (b*hin+r+1)*win]
			if w == nil {
				return s
			}
			slot := r % slots
			d := ring[slot*wout : (slot+1)*wout]
			if tag := b*hin + r; tags[slot] != tag {
				w.resample(d, s, pad, extrapolation)
				tags[slot] = tag
			}
			return d
		}
		in := make([][]A, taps)
		b, o := lo/hout, lo%hout
		for row := lo; row < hi; row++ {
			d := dst[row*wout : (row+1)*wout]
			switch {
			case h == nil:
				s := src[row*win : (row+1)*win]
				w.resample(d, s, pad, extrapolation)
			case h.extrapolate != nil && h.extrapolate[o]:
				for j := range d {
					d[j] = extrapolation
				}
			default:
				for t := range in {
					in[t] = rowOf(b, h.index[o*taps+t])
				}
				resizeCombineRows(d, in, hw[o*taps:o*taps+taps])
			}
			if o++; o == hout {
				o, b = 0, b+1
			}
		}
		return nil
	})
}
