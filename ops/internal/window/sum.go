package ops

// The kernel of AveragePool and LpPool: every window of a plane (the
// geometry of pool.go, shared with MaxPool) is summed, innermost axis
// first: the taps of each window row are summed from 0 in order, and the
// row sums added from 0 in order, outer axes alike. Average divides the sum
// by the window's real taps (count_include_pad=0) or by its taps inside the
// padded input (count_include_pad=1); Lp sums |x|^p and takes the p-th
// root. Padding adds nothing to either sum.

import (
	"math"
	"unsafe"

	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/tensor"
)

// windowPool says what a window reduces to.
type windowPool struct {
	Lp         bool    // LpPool, else AveragePool
	P          float64 // LpPool's exponent
	IncludePad bool    // AveragePool's count_include_pad
}

// windowPoolRun pools x (N x C x spatial) over the windows of axes into a
// new tensor.
func windowPoolRun(opt *Options, op opRef, x *tensor.Tensor, axes []poolAxis, wp windowPool) (*tensor.Tensor, error) {
	opt = opt.orDefault()
	shape := append([]int{}, x.Shape()[:2]...)
	for _, ax := range axes {
		shape = append(shape, ax.Out)
	}
	y, err := opt.newOverwritten(op, x.DataType(), shape)
	if err != nil {
		return nil, err
	}
	w := newPoolWindows(axes)
	divisors := make([][]float64, len(axes)) // per axis, per output: the taps the average counts
	for k, ax := range axes {
		divisors[k] = make([]float64, ax.Out)
		for o := range ax.Out {
			n := w.Count[k][o]
			if wp.IncludePad {
				// The taps inside [-padBegin, in+padEnd): a window of the
				// ceil mode may run past the end padding.
				start := o*ax.Stride - ax.PadBegin
				n = 0
				for t := range ax.Kernel {
					if start+t*ax.Dilation < ax.In+ax.PadEnd {
						n++
					}
				}
			}
			divisors[k][o] = float64(n)
		}
	}
	if x.DataType() == tensor.Double {
		err = windowPoolAs[float64](opt, op, x, y, w, divisors, wp)
	} else {
		err = windowPoolAs[float32](opt, op, x, y, w, divisors, wp)
	}
	if err != nil {
		return nil, err
	}
	return y, nil
}

func windowPoolAs[A float32 | float64](opt *Options, op opRef, x, y *tensor.Tensor, w *poolWindows, divisors [][]float64, wp windowPool) error {
	xs, err := reduceLoad[A](opt, op, x)
	if err != nil {
		return err
	}
	ys, flush, err := reduceOut[A](opt, op, y)
	if err != nil {
		return err
	}
	planes := x.Shape()[0] * x.Shape()[1]
	r := len(w.OutShape)
	var plan *poolWindows
	if r <= 2 {
		plan = w.As2D()
		var zero A
		count := mulCounts(opt.threads(), addCounts(mulCounts(plan.InShape[0], plan.OutShape[1]), w.InPlane))
		if err := opt.scratch(op, "the row sums", count, int(unsafe.Sizeof(zero))); err != nil {
			return err
		}
	}
	err = parallelRange(opt, planes, planes*(w.InPlane+w.OutPlane), func(lo, hi int) error {
		o := make([]int, r)
		var rowSums, terms []A
		for pl := lo; pl < hi; pl++ {
			in := xs[pl*w.InPlane : (pl+1)*w.InPlane]
			out := ys[pl*w.OutPlane : (pl+1)*w.OutPlane]
			if plan != nil {
				rowSums, terms = windowPool2D(in, out, plan, divisors, wp, rowSums, terms)
				continue
			}
			clear(o)
			for i := range out {
				off := 0
				div := 1.0
				for k, ok := range o {
					off += w.First[k][ok] * w.InStride[k]
					div *= divisors[k][ok]
				}
				s := windowSum(in, w, o, 0, off, wp)
				if wp.Lp {
					out[i] = A(math.Pow(float64(s), 1/wp.P))
				} else {
					out[i] = s / A(div)
				}
				movement.NextIndex(o, w.OutShape)
			}
			if err := opt.cancelled(); err != nil {
				return err
			}
		}
		return opt.cancelled()
	})
	if err != nil {
		return op.wrap("cancelled", err, "run stopped")
	}
	flush()
	return nil
}

// windowSum is the sum over the window at output coordinates o of its taps
// along axes k and after, the first at offset off: the innermost axis
// summed first, each sum from 0 in order.
func windowSum[A float32 | float64](in []A, w *poolWindows, o []int, k, off int, wp windowPool) A {
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
		s += windowSum(in, w, o, k+1, off+t*step, wp)
	}
	return s
}

// windowPool2D pools one plane over windows of one or two spatial axes (w
// is as2D) in two passes that add in the same order as windowSum: the sum
// of each window's taps along every input row, then, for each output row,
// those row sums down the window's rows. rowSums and terms are scratch,
// grown as needed and returned.
func windowPool2D[A float32 | float64](in, out []A, w *poolWindows, divisors [][]float64, wp windowPool, rowSums, terms []A) ([]A, []A) {
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
			if n == 3 && step == 1 {
				t := row[c : c+3]
				s += t[0]
				s += t[1]
				s += t[2]
			} else {
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
