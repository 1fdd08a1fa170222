package ops

import (
	"github.com/onnxshape/onnxshape/tensor"
)

// tableCopy is the data movement of an operator that picks, on each axis
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
// of dst's type. Like copyPlan it is untyped, dispatched once on the element
// size; strings move as strings. Unlike a copyPlan it costs one table read
// per element of the innermost axis, so a regular pattern (a repeat by an
// integer factor) is better written as a copyPlan with stride-0 axes.
type tableCopy struct {
	tables [][]int
}

// hasFill reports whether some entry of the tables needs the fill value.
func (p tableCopy) hasFill() bool {
	for _, t := range p.tables {
		for _, v := range t {
			if v < 0 {
				return true
			}
		}
	}
	return false
}

// run executes the copy; fill may be nil when no entry is negative.
func (p tableCopy) run(opt *Options, dst, src, fill *tensor.Tensor) {
	if dst.Len() == 0 {
		return
	}
	if dst.DataType() == tensor.String {
		var f string
		if fill != nil {
			f = fill.Strings()[0]
		}
		tableRows(opt, p, dst.Strings(), src.Strings(), f, 16)
		return
	}
	d, s := dst.Bytes(), src.Bytes()
	var f []byte
	if fill != nil {
		f = fill.Bytes()
	}
	switch size := dst.DataType().Size(); size {
	case 1:
		tableRows(opt, p, d, s, fillElem[byte](f), size)
	case 2:
		tableRows(opt, p, asElems[uint16](d), asElems[uint16](s), fillElem[uint16](f), size)
	case 4:
		tableRows(opt, p, asElems[uint32](d), asElems[uint32](s), fillElem[uint32](f), size)
	case 8:
		tableRows(opt, p, asElems[uint64](d), asElems[uint64](s), fillElem[uint64](f), size)
	case 16:
		tableRows(opt, p, asElems[[2]uint64](d), asElems[[2]uint64](s), fillElem[[2]uint64](f), size)
	}
}

// fillElem reads the one element of a fill tensor's storage (the zero value
// when there is none).
func fillElem[E any](b []byte) E {
	var e E
	if v := asElems[E](b); len(v) > 0 {
		e = v[0]
	}
	return e
}

// tableRows runs a tableCopy over the rows of dst (every axis but the last),
// split across the run's cores (parallelRange) when the copy is large.
func tableRows[E any](opt *Options, p tableCopy, dst, src []E, fill E, elemSize int) {
	r := len(p.tables)
	if r == 0 {
		dst[0] = src[0]
		return
	}
	last := p.tables[r-1]
	n := len(last)
	rows := len(dst) / n
	// contiguous: the last table reads a contiguous run of the source.
	contiguous := true
	for j, v := range last {
		if v < 0 || v != last[0]+j {
			contiguous = false
			break
		}
	}
	work := func(lo, hi int) error {
		idx := make([]int, r-1)
		rem := lo
		for k := r - 2; k >= 0; k-- {
			idx[k] = rem % len(p.tables[k])
			rem /= len(p.tables[k])
		}
		for row := lo; row < hi; row++ {
			base, out := 0, false
			for k, i := range idx {
				v := p.tables[k][i]
				if v < 0 {
					out = true
				}
				base += v
			}
			d := dst[row*n : row*n+n]
			switch {
			case out:
				for j := range d {
					d[j] = fill
				}
			case contiguous:
				copy(d, src[base+last[0]:base+last[0]+n])
			default:
				for j, v := range last {
					if v < 0 {
						d[j] = fill
					} else {
						d[j] = src[base+v]
					}
				}
			}
			for k := r - 2; k >= 0; k-- {
				idx[k]++
				if idx[k] < len(p.tables[k]) {
					break
				}
				idx[k] = 0
			}
		}
		return nil
	}
	_ = parallelRange(opt, rows, len(dst)*elemSize/4, work)
}
