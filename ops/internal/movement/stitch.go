package movement

import (
	"unsafe"

	"github.com/onnxshape/onnxshape/ops/internal/parallel"
	"github.com/onnxshape/onnxshape/ops/internal/poll"
	"github.com/onnxshape/onnxshape/tensor"
)

// Stitch is the data movement of Concat and Split: a whole tensor whose rows
// are the rows of its parts laid side by side. cut every tensor at the joined
// axis into outer rows (outer is the product of the dimensions before it);
// part i's row holds width[i] elements, the whole's row their sum, and
//
//	whole[o*row + at[i] + j] = part_i[o*width[i] + j]
//
// for every row o, part i and j < width[i], where at[i] is the sum of the
// widths before i. Concat fills the whole from its parts, Split the parts from
// the whole.
//
// One pass walks the whole in order, a copy per part and row, and the cores
// take equal stretches of the whole: the whole streams once on each core and
// no two cores write one cache line (each stretch starts on a 64-byte
// boundary), where a copy plan per part would walk the whole once per part,
// the cores meeting at every part's end.
type Stitch struct {
	whole *tensor.Tensor
	parts []*tensor.Tensor
	outer int
	width []int // elements per row of each part
}

// bigCopy is the copy, in bytes, from which stitch moves a row with
// CopyBytes.
const bigCopy = 64 << 10

// stitchStep is the most elements stitchRows moves in one copy call.
const stitchStep = 4 << 20

// stitchMinRow is the narrowest part row, in bytes, that stitch is given:
// below it a copy call per row costs more than the strided loop of a copy
// plan per part.
const stitchMinRow = 64

// NewStitch returns the stitch of parts joined along axis k into whole, and
// false when some part's rows are too narrow for it to pay (a part with no
// elements does not count: it has no rows to copy).
func NewStitch(whole *tensor.Tensor, parts []*tensor.Tensor, k int) (Stitch, bool) {
	s := Stitch{whole: whole, parts: parts, outer: 1, width: make([]int, len(parts))}
	for _, n := range whole.Shape()[:k] {
		s.outer *= n
	}
	size := whole.DataType().Size()
	if whole.DataType() == tensor.String {
		size = int(unsafe.Sizeof(""))
	}
	for i, p := range parts {
		if s.outer > 0 {
			s.width[i] = p.Len() / s.outer
		}
		if s.width[i] != 0 && s.width[i]*size < stitchMinRow {
			return s, false
		}
	}
	return s, true
}

// Join fills the whole from the parts (Concat).
func (s Stitch) Join(env Env) error { return s.run(env, true) }

// Cut fills the parts from the whole (Split).
func (s Stitch) Cut(env Env) error { return s.run(env, false) }

// Run moves the elements; it returns the context's error when the run is
// cancelled.
func (s Stitch) run(env Env, join bool) error {
	if err := env.cancelled(); err != nil || s.whole.Len() == 0 {
		return err
	}
	if s.whole.DataType() == tensor.String {
		parts := make([][]string, len(s.parts))
		for i, p := range s.parts {
			parts[i] = p.Strings()
		}
		return stitchRows(env, s.whole.Strings(), parts, s.width, s.outer, join, 1, 16, nil)
	}
	// Numbers move as bytes: widths in bytes, stretches in cache lines.
	size := s.whole.DataType().Size()
	parts := make([][]byte, len(s.parts))
	width := make([]int, len(s.parts))
	for i, p := range s.parts {
		parts[i], width[i] = p.Bytes(), s.width[i]*size
	}
	return stitchRows(env, s.whole.Bytes(), parts, width, s.outer, join, 64, 1, CopyBytes)
}

// stitchRows moves the elements of a stitch between whole and parts, split
// across the run's cores in stretches of whole that start on a multiple of
// align elements; elemSize weighs the work. Copies of bigCopy bytes or more
// go through move when it is not nil (CopyBytes), the others through copy,
// which the compiler inlines. It polls the run's context between copies.
func stitchRows[E any](env Env, whole []E, parts [][]E, width []int, outer int, join bool, align, elemSize int, move func(dst, src []E) int) error {
	row := len(whole) / outer
	at := make([]int, len(width)+1)
	for i, w := range width {
		at[i+1] = at[i] + w
	}
	blocks := (len(whole) + align - 1) / align
	return parallel.Range(env.Ctx, env.threads(), blocks, len(whole)*elemSize/4, func(lo, hi int) error {
		c := poll.New(env.Ctx)
		p, end := lo*align, min(hi*align, len(whole))
		o, r := p/row, p%row
		i := 0
		for at[i+1] <= r {
			i++
		}
		for p < end {
			// At most stitchStep elements a copy, so that a cancelled run
			// stops within one even when a row is gigabytes long.
			n := min(at[i+1]-r, end-p, stitchStep)
			src := o*width[i] + r - at[i]
			switch {
			case move != nil && n*elemSize >= bigCopy && join:
				move(whole[p:p+n], parts[i][src:src+n])
			case move != nil && n*elemSize >= bigCopy:
				move(parts[i][src:src+n], whole[p:p+n])
			case join:
				copy(whole[p:p+n], parts[i][src:src+n])
			default:
				copy(parts[i][src:src+n], whole[p:p+n])
			}
			if c.Stop(n) {
				return c.Err
			}
			p, r = p+n, r+n
			// The next part with elements in this row, or the next row.
			for p < end && r == at[i+1] {
				if i++; i == len(width) {
					i, r, o = 0, 0, o+1
				}
			}
		}
		return nil
	})
}
