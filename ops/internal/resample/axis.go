package resample

import (
	"context"
	"fmt"
	"slices"

	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/ops/internal/parallel"
	"github.com/onnxshape/onnxshape/ops/internal/poll"
)

// Axis is the plan of one axis.
type Axis struct {
	In, Out int
	Taps    int       // taps per output index
	Index   []int     // Out*Taps input indices, each in [0, In)
	Weight  []float64 // Out*Taps weights
	// Start is, per output index, its first tap before clamping: the taps
	// of output o are Start[o], Start[o]+1, ..., each clamped to [0, In)
	// in Index. Nil for nearest.
	Start []int
	// Extrapolate marks the output indices that tf_crop_and_resize maps
	// outside the input; nil when there are none.
	Extrapolate []bool
}

// Identity reports whether the plan copies the axis unchanged.
func (a *Axis) Identity() bool {
	if a.In != a.Out || a.Extrapolate != nil {
		return false
	}
	for o := range a.Out {
		var self float64 // the weight of o itself (clamped taps may repeat it)
		for t := range a.Taps {
			i, w := a.Index[o*a.Taps+t], a.Weight[o*a.Taps+t]
			if i == o {
				self += w
			} else if w != 0 {
				return false
			}
		}
		if self != 1 {
			return false
		}
	}
	return true
}

// SameTaps reports whether output o and output q, if there is one, read
// the same input indices (neither extrapolated).
func (a *Axis) SameTaps(o, q int) bool {
	if q >= a.Out || a.Extrapolate != nil && (a.Extrapolate[o] || a.Extrapolate[q]) {
		return false
	}
	return slices.Equal(a.Index[o*a.Taps:(o+1)*a.Taps], a.Index[q*a.Taps:(q+1)*a.Taps])
}

// Repeat returns f when the plan (nearest, one tap) repeats each input
// element f times in order, as 2x nearest upsampling does; 0 otherwise.
func (a *Axis) Repeat() int {
	if a.Taps != 1 || a.Extrapolate != nil || a.In == 0 || a.Out%a.In != 0 {
		return 0
	}
	f := a.Out / a.In
	for o, i := range a.Index {
		if i != o/f {
			return 0
		}
	}
	return f
}

// Pass resamples one axis: src is [outer, a.in, inner], dst
// [outer, a.out, inner], and every dst row is the weighted sum of the src
// rows its taps name. It polls the run's context row by row.
func Pass[A convert.Float](ctx context.Context, threads int, dst, src []A, outer, inner int, a *Axis, extrapolation A) error {
	taps := a.Taps
	w := make([]A, len(a.Weight))
	for i, v := range a.Weight {
		w[i] = A(v)
	}
	rows := outer * a.Out
	inRow := a.In * inner
	return parallel.Range(ctx, threads, rows, rows*inner*taps, func(lo, hi int) error {
		c := poll.New(ctx)
		if inner == 1 {
			// The innermost axis: one element a row. Walk (b, o) by
			// increment rather than a division per element.
			b, o := lo/a.Out, lo%a.Out
			s := src[b*inRow : b*inRow+inRow]
			for row := lo; row < hi; row++ {
				if a.Extrapolate != nil && a.Extrapolate[o] {
					dst[row] = extrapolation
				} else {
					base := o * taps
					var acc A
					for t := base; t < base+taps; t++ {
						acc += w[t] * s[a.Index[t]]
					}
					dst[row] = acc
				}
				if o++; o == a.Out && row+1 < hi {
					o, b = 0, b+1
					s = src[b*inRow : b*inRow+inRow]
					if c.Stop(a.Out * taps) {
						return c.Err
					}
				}
			}
			return nil
		}
		for row := lo; row < hi; row++ {
			if c.Stop(inner * taps) {
				return c.Err
			}
			b, o := row/a.Out, row%a.Out
			d := dst[row*inner : row*inner+inner]
			if a.Extrapolate != nil && a.Extrapolate[o] {
				for j := range d {
					d[j] = extrapolation
				}
				continue
			}
			s := src[b*inRow : b*inRow+inRow]
			idx, ws := a.Index[o*taps:o*taps+taps], w[o*taps:o*taps+taps]
			first, w0 := s[idx[0]*inner:idx[0]*inner+inner], ws[0]
			for j, v := range first {
				d[j] = w0 * v
			}
			for t := 1; t < taps; t++ {
				r, wt := s[idx[t]*inner:idx[t]*inner+inner], ws[t]
				for j, v := range r {
					d[j] += wt * v
				}
			}
		}
		return nil
	})
}

// String describes a plan, for test failures.
func (a *Axis) String() string {
	return fmt.Sprintf("Axis{in %d, out %d, taps %d, index %v, weight %v, extrapolate %v}", a.In, a.Out, a.Taps, a.Index, a.Weight, a.Extrapolate)
}
