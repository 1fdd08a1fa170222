// Package nms selects boxes by non-maximum suppression, the engine of the
// NonMaxSuppression operator: per batch entry and class, boxes in order of
// falling score (the lower index first among equal scores, NaN last), each
// kept unless its intersection over union with a box already kept for that
// class exceeds the threshold.
//
// A box's corners and area are computed once per batch entry, with the
// float32 operations (and their order) of the operator's definition, so the
// selection is the one of comparing every pair afresh. A candidate is
// compared only with the kept boxes whose x-interval may overlap its own:
// kept boxes are filed in a grid of cells along x, each in the cells its
// x-interval covers (or, when it covers many, in a list every candidate
// reads). Boxes that cannot overlap anything (no area, inverted, NaN) are
// never filed and never compared.
//
// A Selector holds the scratch of one node's run, sized by BytesFor and
// allocated once (the operator charges it to the run); it never writes
// into the boxes or scores it reads.
package nms

import (
	"math"
	"slices"
)

// maxSpan is the most cells a kept box is filed in; a wider one goes to
// the list every candidate reads, a wider candidate reads every kept box.
const maxSpan = 4

// box is a box's corners and area, computed once; lo and hi are the cells
// its x-interval covers, lo < 0 for a box that overlaps nothing.
type box struct {
	x0, x1, y0, y1, area float32
	lo, hi               int32
}

// entry is a kept box filed in a cell, linked to the cell's previous entry.
type entry struct {
	b    box
	next int32
}

type candidate struct {
	score float32
	index int32
}

// Params are a selection's limits.
type Params struct {
	IoU         float32 // a candidate is suppressed when its IoU with a kept box exceeds this
	MaxOut      int64   // the most boxes kept per class
	ScoreMin    float32 // with HasScoreMin, scores must exceed this
	HasScoreMin bool
}

// Selector is the scratch of the selections of one run over count boxes.
type Selector struct {
	boxes   []box
	order   []candidate
	kept    []box
	wide    []int32
	entries []entry
	head    []int32
	cells   int
	lo, inv float64
}

// BytesFor is the most scratch a Selector over count boxes holds.
func BytesFor(count int) int64 {
	per := int64(28 + 8 + 28 + 4 + maxSpan*32 + 4)
	return int64(count) * per
}

// New returns a Selector for batches of count boxes.
func New(count int) *Selector {
	return &Selector{
		boxes: make([]box, count),
		order: make([]candidate, 0, count),
		kept:  make([]box, 0, count),
	}
}

// SetBoxes computes the corners and areas of a batch entry's boxes, count
// groups of four: [y1, x1, y2, x2] corners in either order, or with
// centerPoint [x_center, y_center, width, height].
func (s *Selector) SetBoxes(data []float32, centerPoint bool) {
	lo, hi, widths, active := math.Inf(1), math.Inf(-1), 0.0, 0
	for i := range s.boxes {
		p := data[4*i : 4*i+4 : 4*i+4]
		var x0, x1, y0, y1 float32
		if centerPoint {
			w, h := p[2]/2, p[3]/2
			x0, x1, y0, y1 = p[0]-w, p[0]+w, p[1]-h, p[1]+h
		} else {
			x0, x1 = min(p[1], p[3]), max(p[1], p[3])
			y0, y1 = min(p[0], p[2]), max(p[0], p[2])
		}
		b := box{x0: x0, x1: x1, y0: y0, y1: y1, area: float32((x1 - x0) * (y1 - y0)), lo: -1}
		// A box whose sides are not both positive (or NaN) overlaps nothing:
		// the intersection of its x- or y-interval with any is empty, or
		// the IoU is NaN. So does a box of no area (it suppresses nothing
		// and nothing suppresses it).
		if x1 > x0 && y1 > y0 && b.area > 0 {
			b.lo = 0
			active++
			if w := float64(x1) - float64(x0); !math.IsInf(w, 0) {
				widths += w
				lo, hi = min(lo, float64(x0)), max(hi, float64(x1))
			}
		}
		s.boxes[i] = b
	}
	// Cells about as wide as the mean box, at most one per box.
	s.cells, s.lo, s.inv = 1, 0, 0
	if span := hi - lo; active >= gridFrom && span > 0 && !math.IsInf(span, 0) && widths > 0 {
		cells := math.Ceil(span / (widths / float64(active)))
		s.cells = int(min(max(cells, 1), float64(active)))
		s.lo, s.inv = lo, float64(s.cells)/span
		if s.head == nil {
			n := len(s.boxes)
			s.head, s.wide, s.entries = make([]int32, n), make([]int32, 0, n), make([]entry, 0, maxSpan*n)
		}
	}
	for i := range s.boxes {
		if b := &s.boxes[i]; b.lo >= 0 {
			b.lo, b.hi = s.cell(b.x0), s.cell(b.x1)
		}
	}
}

// gridFrom is the fewest boxes that can overlap something for which the
// kept boxes are filed in cells; fewer are compared with every kept box.
const gridFrom = 32

// cell is the cell of x, a nondecreasing function of x.
func (s *Selector) cell(x float32) int32 {
	f := (float64(x) - s.lo) * s.inv
	if !(f >= 0) {
		return 0
	}
	if f >= float64(s.cells) {
		return int32(s.cells - 1)
	}
	return int32(f)
}

// Select appends to dst the triples (batch, class, box) of the boxes kept
// for scores, the scores of one class over the boxes of the last SetBoxes.
func (s *Selector) Select(dst []int64, batch, class int, scores []float32, p Params) []int64 {
	if p.MaxOut <= 0 {
		return dst
	}
	s.order = s.order[:0]
	for i, v := range scores {
		if !p.HasScoreMin || v > p.ScoreMin {
			s.order = append(s.order, candidate{v, int32(i)})
		}
	}
	slices.SortFunc(s.order, func(a, b candidate) int {
		switch {
		case scoreBefore(a.score, b.score):
			return -1
		case scoreBefore(b.score, a.score):
			return 1
		}
		return int(a.index - b.index)
	})
	s.kept, s.wide, s.entries = s.kept[:0], s.wide[:0], s.entries[:0]
	if s.cells > 1 {
		head := s.head[:s.cells]
		for i := range head {
			head[i] = -1
		}
	}
	kept := int64(0)
	for _, c := range s.order {
		if kept >= p.MaxOut {
			break
		}
		b := s.boxes[c.index]
		if b.lo >= 0 {
			if s.suppressed(b, p.IoU) {
				continue
			}
			s.file(b)
		}
		kept++
		dst = append(dst, int64(batch), int64(class), int64(c.index))
	}
	return dst
}

// suppressed reports whether a kept box overlaps b by more than threshold.
func (s *Selector) suppressed(b box, threshold float32) bool {
	if s.cells == 1 || b.hi-b.lo >= maxSpan {
		for i := range s.kept {
			if above(b, &s.kept[i], threshold) {
				return true
			}
		}
		return false
	}
	for c := b.lo; c <= b.hi; c++ {
		for e := s.head[c]; e >= 0; e = s.entries[e].next {
			if above(b, &s.entries[e].b, threshold) {
				return true
			}
		}
	}
	for _, k := range s.wide {
		if above(b, &s.kept[k], threshold) {
			return true
		}
	}
	return false
}

// file adds b to the kept boxes.
func (s *Selector) file(b box) {
	s.kept = append(s.kept, b)
	if s.cells == 1 {
		return
	}
	if b.hi-b.lo >= maxSpan {
		s.wide = append(s.wide, int32(len(s.kept)-1))
		return
	}
	for c := b.lo; c <= b.hi; c++ {
		s.entries = append(s.entries, entry{b, s.head[c]})
		s.head[c] = int32(len(s.entries) - 1)
	}
}

// above reports whether the IoU of two boxes of positive sides and area
// exceeds threshold, in float32 (each product rounded, never fused). Their
// corners are numbers, so the plain comparisons pick what min and max
// would, and a zero's sign does not change a difference of unequal values.
func above(p box, q *box, threshold float32) bool {
	ix0, ix1 := p.x0, p.x1
	if q.x0 > ix0 {
		ix0 = q.x0
	}
	if q.x1 < ix1 {
		ix1 = q.x1
	}
	if ix1 <= ix0 {
		return false
	}
	iy0, iy1 := p.y0, p.y1
	if q.y0 > iy0 {
		iy0 = q.y0
	}
	if q.y1 < iy1 {
		iy1 = q.y1
	}
	if iy1 <= iy0 {
		return false
	}
	inter := float32((ix1 - ix0) * (iy1 - iy0))
	if inter <= 0 {
		return false
	}
	union := float32(p.area+q.area) - inter
	if union <= 0 {
		return false
	}
	return inter/union > threshold
}

// scoreBefore orders scores from the highest, NaN last.
func scoreBefore(a, b float32) bool {
	if a != a {
		return false
	}
	return b != b || a > b
}
