package conv

// window is the geometry that links an image to the grid of window
// positions: position o along axis a covers image coordinate
// o*stride[a] - pad[a] + t*dilation[a] for tap t.
type window struct {
	image, grid, kernel, stride, dilation, pad []int
}

// segment sets coord to the window coordinates of position p and returns
// the end of the run of positions [p, q) of [p, p1) that differ only along
// the last axis.
func (w window) segment(p, p1 int, coord []int) int {
	r := len(w.grid)
	rem := p
	for a := r - 1; a >= 0; a-- {
		coord[a] = rem % w.grid[a]
		rem /= w.grid[a]
	}
	return min(p1, p-coord[r-1]+w.grid[r-1])
}

// nextRow moves coord, the coordinates of a run's first position, to the
// first position p of the next run (the next row of the grid), and returns
// that run's end within p1: segment's result without its divisions.
func (w window) nextRow(p, p1 int, coord []int) int {
	la := len(coord) - 1
	coord[la] = 0
	for a := la - 1; a >= 0; a-- {
		if coord[a]++; coord[a] < w.grid[a] {
			break
		}
		coord[a] = 0
	}
	return min(p1, p+w.grid[la])
}

// maxStackRank is the most axes whose coordinates gather and scatter keep
// on the stack (beyond it, on the heap).
const maxStackRank = 6

// coords returns two slices of r ints, tap and coord, in buf when it is
// large enough.
func coords(buf *[2 * maxStackRank]int, r int) (tap, coord []int) {
	if r > maxStackRank {
		b := make([]int, 2*r)
		return b[:r], b[r:]
	}
	return buf[:r], buf[maxStackRank : maxStackRank+r]
}

// outer returns the image offset of the axes before the last for window
// coordinates coord and kernel taps tap, and false when one falls in the
// padding.
func (w window) outer(coord, tap []int) (int, bool) {
	off := 0
	for a := 0; a < len(coord)-1; a++ {
		i := coord[a]*w.stride[a] - w.pad[a] + tap[a]*w.dilation[a]
		if i < 0 || i >= w.image[a] {
			return 0, false
		}
		off = off*w.image[a] + i
	}
	return off * w.image[len(coord)-1], true
}

// taps returns the kernel coordinates of flat tap index k.
func (w window) taps(k int, tap []int) {
	for a := len(w.kernel) - 1; a >= 0; a-- {
		tap[a] = k % w.kernel[a]
		k /= w.kernel[a]
	}
}

// gather writes the im2col rows of one image channel src for window
// positions [p0, p1): row t (one per kernel tap, row stride ld) holds the
// tap's image value at each position, pad where it falls outside.
func gather[E any](dst []E, ld int, src []E, w window, p0, p1 int, pad E) {
	r := len(w.kernel)
	var buf [2 * maxStackRank]int
	tap, coord := coords(&buf, r)
	la := r - 1
	s, d, pb, size := w.stride[la], w.dilation[la], w.pad[la], w.image[la]
	for t := range prod(w.kernel) {
		w.taps(t, tap)
		row := dst[t*ld : t*ld+(p1-p0)]
		base := tap[la]*d - pb
		for p, q := p0, w.segment(p0, p1, coord); p < p1; p, q = q, w.nextRow(q, p1, coord) {
			seg := row[p-p0 : q-p0]
			off, ok := w.outer(coord, tap)
			if !ok {
				for j := range seg {
					seg[j] = pad
				}
				continue
			}
			o0 := coord[la]
			lo, hi := validRange(base, s, size, o0+len(seg))
			lo, hi = max(lo, o0), max(hi, o0)
			for j := range seg[:min(lo-o0, len(seg))] {
				seg[j] = pad
			}
			if hi > lo {
				if s == 1 {
					copy(seg[lo-o0:hi-o0], src[off+lo+base:off+hi+base])
				} else {
					for o := lo; o < hi; o++ {
						seg[o-o0] = src[off+o*s+base]
					}
				}
			}
			for j := max(hi-o0, 0); j < len(seg); j++ {
				seg[j] = pad
			}
		}
	}
}

// scatter adds the col2im rows of one image channel back onto dst: row t
// (one per kernel tap, row stride ld) holds, for window positions [p0,
// p1), what the tap adds to its image element; taps in the padding add
// nothing.
func scatter[T Number](dst []T, col []T, ld int, w window, p0, p1 int) {
	r := len(w.kernel)
	var buf [2 * maxStackRank]int
	tap, coord := coords(&buf, r)
	la := r - 1
	s, d, pb, size := w.stride[la], w.dilation[la], w.pad[la], w.image[la]
	for t := range prod(w.kernel) {
		w.taps(t, tap)
		row := col[t*ld : t*ld+(p1-p0)]
		base := tap[la]*d - pb
		for p, q := p0, w.segment(p0, p1, coord); p < p1; p, q = q, w.nextRow(q, p1, coord) {
			off, ok := w.outer(coord, tap)
			if !ok {
				continue
			}
			o0 := coord[la]
			lo, hi := validRange(base, s, size, o0+(q-p))
			lo = max(lo, o0)
			for o := lo; o < hi; o++ {
				dst[off+o*s+base] += row[p-p0+o-o0]
			}
		}
	}
}
