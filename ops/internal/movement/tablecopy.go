package movement

import (
	"github.com/onnxshape/onnxshape/ops/internal/parallel"
	"github.com/onnxshape/onnxshape/ops/internal/poll"
	"github.com/onnxshape/onnxshape/tensor"
)

// Table is the data movement of an operator that picks, on each axis
// independently, which source index feeds each output index: nearest-
// neighbour Resize and Upsample, and any gather along several axes at once.
// It fills a row-major dst of shape [len(tables[0]), len(tables[1]), ...]:
//
//	dst[i] = src[Σ tables[k][i[k]]]
//
// where tables[k][j] is the offset, in elements, that output index j of
// axis k contributes (the source index times the source stride). A negative
// entry marks an output index with no source (Resize's tf_crop_and_resize
// outside the region): every element on it takes fill, a one-element tensor
// of dst's type. Like Plan it is untyped, dispatched once on the element
// size; strings move as strings. Unlike a Plan it costs one table read
// per element of the innermost axis, so a regular pattern (a repeat by an
// integer factor) is better written as a Plan with stride-0 axes.
type Table struct {
	Tables [][]int
}

// HasFill reports whether some entry of the tables needs the fill value.
func (p Table) HasFill() bool {
	for _, t := range p.Tables {
		for _, v := range t {
			if v < 0 {
				return true
			}
		}
	}
	return false
}

// Run executes the copy; fill may be nil when no entry is negative. It
// returns the context's error when the run is cancelled.
func (p Table) Run(env Env, dst, src, fill *tensor.Tensor) error {
	if err := env.cancelled(); err != nil || dst.Len() == 0 {
		return err
	}
	if dst.DataType() == tensor.String {
		var f string
		if fill != nil {
			f = fill.Strings()[0]
		}
		return tableRows(env, p, dst.Strings(), src.Strings(), f, 16)
	}
	d, s := dst.Bytes(), src.Bytes()
	var f []byte
	if fill != nil {
		f = fill.Bytes()
	}
	switch size := dst.DataType().Size(); size {
	case 1:
		return tableRows(env, p, d, s, fillElem[byte](f), size)
	case 2:
		return tableRows(env, p, AsElems[uint16](d), AsElems[uint16](s), fillElem[uint16](f), size)
	case 4:
		return tableRows(env, p, AsElems[uint32](d), AsElems[uint32](s), fillElem[uint32](f), size)
	case 8:
		return tableRows(env, p, AsElems[uint64](d), AsElems[uint64](s), fillElem[uint64](f), size)
	case 16:
		return tableRows(env, p, AsElems[[2]uint64](d), AsElems[[2]uint64](s), fillElem[[2]uint64](f), size)
	}
	return nil
}

// fillElem reads the one element of a fill tensor's storage (the zero value
// when there is none).
func fillElem[E any](b []byte) E {
	var e E
	if v := AsElems[E](b); len(v) > 0 {
		e = v[0]
	}
	return e
}

// tableRows runs a Table over the rows of dst (every axis but the last),
// split across the run's cores (parallelRange) when the copy is large. Its
// rows go out line after line with ordinary stores, which streaming stores
// only made slower (see stream.go). It polls the run's context row by row.
func tableRows[E any](env Env, p Table, dst, src []E, fill E, elemSize int) error {
	r := len(p.Tables)
	if r == 0 {
		dst[0] = src[0]
		return nil
	}
	last := p.Tables[r-1]
	n := len(last)
	rows := len(dst) / n
	// [a, b): the stretch of the last table that reads a contiguous run of
	// the source, copied by one copy per row (the whole row for an
	// identity axis, the interior of Pad); the rest goes element by element.
	a, b := contiguousStretch(last)
	// A row's source offset is the sum of its index's entries in the tables
	// before the last. The row axis (the second-to-last table, col) moves
	// fastest, so the axes outside it are summed once per run of col and
	// the loop over rows reads one entry a row (the sums and the index
	// steps were a quarter of Pad's profile). A single row is a col of one
	// entry.
	col, outer := []int{0}, p.Tables[:0]
	if r >= 2 {
		col, outer = p.Tables[r-2], p.Tables[:r-2]
	}
	work := func(lo, hi int) error {
		c := poll.New(env.Ctx)
		idx := make([]int, len(outer))
		rem := lo / len(col)
		for k := len(outer) - 1; k >= 0; k-- {
			idx[k] = rem % len(outer[k])
			rem /= len(outer[k])
		}
		i := lo % len(col)
		for row := lo; row < hi; i = 0 {
			base0, out0 := 0, false
			for k, j := range idx {
				v := outer[k][j]
				if v < 0 {
					out0 = true
				}
				base0 += v
			}
			for ; i < len(col) && row < hi; i, row = i+1, row+1 {
				d := dst[row*n : row*n+n]
				if v := col[i]; out0 || v < 0 {
					for j := range d {
						d[j] = fill
					}
				} else {
					base := base0 + v
					tableElems(d[:a], src, last[:a], base, fill)
					if a < b {
						copy(d[a:b], src[base+last[a]:base+last[a]+b-a])
					}
					tableElems(d[b:], src, last[b:], base, fill)
				}
				if c.Stop(n) {
					return c.Err
				}
			}
			for k := len(outer) - 1; k >= 0; k-- {
				idx[k]++
				if idx[k] < len(outer[k]) {
					break
				}
				idx[k] = 0
			}
		}
		return nil
	}
	return parallel.Range(env.Ctx, env.threads(), rows, len(dst)*elemSize/4, work)
}

// tableElems fills d element by element from the table entries t (offsets
// from base; negative entries take fill).
func tableElems[E any](d, src []E, t []int, base int, fill E) {
	for j, v := range t {
		if v < 0 {
			d[j] = fill
		} else {
			d[j] = src[base+v]
		}
	}
}

// minStretch is the shortest contiguous stretch of a table worth a copy call
// per row rather than a loop over its elements.
const minStretch = 16

// contiguousStretch returns the longest stretch [a, b) of t whose entries
// read consecutive source elements, or an empty one when the longest is
// shorter than minStretch and not the whole table.
func contiguousStretch(t []int) (a, b int) {
	for i := 0; i < len(t); {
		j := i + 1
		if t[i] >= 0 {
			for j < len(t) && t[j] == t[j-1]+1 {
				j++
			}
			if j-i > b-a {
				a, b = i, j
			}
		}
		i = j
	}
	if b-a < minStretch && b-a < len(t) {
		return 0, 0
	}
	return a, b
}
