package ops

// The per-axis plan of Resize and the passes that stream data through it.
//
// Resize is separable: an N-linear or N-cubic filter is a 1-D filter per
// axis, applied one axis after the other. So each resized axis gets a plan,
// computed once per call: for every output index, the input indices it reads
// (taps, clamped to the axis: outside taps read the edge element) and their
// weights, or a mark that it lies outside tf_crop_and_resize's region. The
// passes then only stream data. They run innermost axis first, the order in
// which the reference implementation nests its 1-D interpolations, so that
// the values match it (extrapolated values included) up to float rounding.
// The two innermost axes run as one step, plane by plane, in the fused
// kernel of resize_plane.go; the passes here serve the outer axes.

import (
	"fmt"
	"math"
	"slices"
	"unsafe"

	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/tensor"
)

// resizeAxis is the plan of one axis.
type resizeAxis struct {
	in, out int
	taps    int       // taps per output index
	index   []int     // out*taps input indices, each in [0, in)
	weight  []float64 // out*taps weights
	// start is, per output index, its first tap before clamping: the taps
	// of output o are start[o], start[o]+1, ..., each clamped to [0, in)
	// in index. Nil for nearest.
	start []int
	// extrapolate marks the output indices that tf_crop_and_resize maps
	// outside the input; nil when there are none.
	extrapolate []bool
}

// identity reports whether the plan copies the axis unchanged.
func (a *resizeAxis) identity() bool {
	if a.in != a.out || a.extrapolate != nil {
		return false
	}
	for o := range a.out {
		var self float64 // the weight of o itself (clamped taps may repeat it)
		for t := range a.taps {
			i, w := a.index[o*a.taps+t], a.weight[o*a.taps+t]
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

// sameTaps reports whether output o and output q, if there is one, read
// the same input indices (neither extrapolated).
func (a *resizeAxis) sameTaps(o, q int) bool {
	if q >= a.out || a.extrapolate != nil && (a.extrapolate[o] || a.extrapolate[q]) {
		return false
	}
	return slices.Equal(a.index[o*a.taps:(o+1)*a.taps], a.index[q*a.taps:(q+1)*a.taps])
}

// repeat returns f when the plan (nearest, one tap) repeats each input
// element f times in order, as 2x nearest upsampling does; 0 otherwise.
func (a *resizeAxis) repeat() int {
	if a.taps != 1 || a.extrapolate != nil || a.in == 0 || a.out%a.in != 0 {
		return 0
	}
	f := a.out / a.in
	for o, i := range a.index {
		if i != o/f {
			return 0
		}
	}
	return f
}

// resizeCoordinate returns the input coordinate of output index x of axis k
// (x_original in the specification), and whether it lies outside the region
// of tf_crop_and_resize.
func resizeCoordinate(p resizeParams, g resizeGeometry, k, x, in int) (float64, bool) {
	s, w, out := g.scale[k], g.width[k], g.out[k]
	xf := float64(x)
	switch p.coord {
	case "half_pixel_symmetric":
		adjustment := float64(out) / w
		center := float64(in) / 2
		offset := center * (1 - adjustment)
		return offset + (xf+0.5)/s - 0.5, false
	case "pytorch_half_pixel":
		if out > 1 {
			return (xf+0.5)/s - 0.5, false
		}
		return 0, false
	case "align_corners":
		if out == 1 {
			return 0, false
		}
		return xf * float64(in-1) / (w - 1), false
	case "asymmetric":
		return xf / s, false
	case "tf_half_pixel_for_nn":
		return (xf + 0.5) / s, false
	case "tf_crop_and_resize":
		r0, r1 := g.roi[k][0], g.roi[k][1]
		var c float64
		if out == 1 {
			c = (r1 - r0) * float64(in-1) / 2
		} else {
			c = xf * (r1 - r0) * float64(in-1) / (w - 1)
		}
		c += r0 * float64(in-1)
		return c, c < 0 || c > float64(in-1)
	}
	return (xf+0.5)/s - 0.5, false // half_pixel
}

// planResizeAxis computes the plan of axis k, of input length in.
func planResizeAxis(opt *Options, op opRef, p resizeParams, g resizeGeometry, k, in int) (*resizeAxis, error) {
	out := g.out[k]
	a := &resizeAxis{in: in, out: out}
	if out == 0 {
		return a, nil
	}
	// taps and their offsets from the base index: taps start at base+first.
	taps, first := 1, 0
	filterScale := min(g.scale[k], 1) // antialias stretches the filter by 1/scale
	if p.antialias && 1/filterScale > float64(1<<24) {
		return nil, op.errorf("scales", "axis %d: the antialias filter of scale %v is too wide", k, g.scale[k])
	}
	switch {
	case p.mode == "linear" && p.antialias:
		first = int(math.Floor(-1/filterScale)) + 1
		taps = 2 - 2*first
	case p.mode == "cubic" && p.antialias:
		first = int(math.Floor(-2/filterScale)) + 1
		taps = 2 - 2*first
	case p.mode == "linear":
		taps, first = 2, 0
	case p.mode == "cubic":
		taps, first = 4, -1
	}
	// The plan: an index and a weight per tap, a start and a mark per
	// output; and the copies the loops make of it (the weights in the
	// computing type, the per-output records of resizeRowFilter).
	perOut := addCounts(mulCounts(taps, 4), 3)
	if err := opt.scratch(op, fmt.Sprintf("the plan of axis %d (%d outputs of %d taps)", k, out, taps), mulCounts(out, perOut), 8); err != nil {
		return nil, err
	}
	a.taps = taps
	a.index = make([]int, out*taps)
	a.weight = make([]float64, out*taps)
	if p.mode != "nearest" {
		a.start = make([]int, out)
	}
	coeffs := make([]float64, taps)
	for o := range out {
		x, outside := resizeCoordinate(p, g, k, o, in)
		if outside {
			if a.extrapolate == nil {
				a.extrapolate = make([]bool, out)
			}
			a.extrapolate[o] = true
			continue
		}
		idx, w := a.index[o*taps:(o+1)*taps], a.weight[o*taps:(o+1)*taps]
		if p.mode == "nearest" {
			idx[0], w[0] = clampIndex(nearestIndex(p.nearest, x, g.scale[k]), in), 1
			continue
		}
		// base is the tap left of x, ratio in (0, 1] its distance to x: an
		// integer x counts as 1 to the right of base, as in the reference.
		fl := math.Floor(x)
		ratio := x - fl
		if ratio == 0 {
			ratio = 1
		}
		base := int(fl)
		if x == fl {
			base--
		}
		switch {
		case p.mode == "linear" && p.antialias:
			for t := range coeffs {
				arg := (float64(first+t) - ratio) * filterScale
				coeffs[t] = max(0, min(1, 1-math.Abs(arg)))
			}
			normalize(coeffs)
		case p.mode == "cubic" && p.antialias:
			for t := range coeffs {
				coeffs[t] = cubicKernel(filterScale*(float64(first+t)-ratio), p.cubicA)
			}
			normalize(coeffs)
		case p.mode == "linear":
			coeffs[0], coeffs[1] = 1-ratio, ratio
		default:
			cubicCoeffs(coeffs, ratio, p.cubicA)
		}
		if p.exclude {
			for t := range coeffs {
				if i := base + first + t; i < 0 || i >= in {
					coeffs[t] = 0
				}
			}
			normalize(coeffs)
		}
		a.start[o] = base + first
		for t := range coeffs {
			idx[t], w[t] = clampIndex(base+first+t, in), coeffs[t]
		}
	}
	return a, nil
}

// nearestIndex rounds coordinate x to an input index as nearest_mode says.
// "legacy" is the rule of Upsample and Resize-10: floor when upsampling,
// ceiling when downsampling.
func nearestIndex(mode string, x, scale float64) int {
	fl := math.Floor(x)
	if x == fl {
		return int(fl)
	}
	frac := x - fl
	up := false
	switch mode {
	case "round_prefer_floor":
		up = frac > 0.5
	case "round_prefer_ceil":
		up = frac >= 0.5
	case "ceil":
		up = true
	case "legacy":
		up = scale < 1
	}
	if up {
		return int(fl) + 1
	}
	return int(fl)
}

func clampIndex(i, n int) int {
	return max(0, min(n-1, i))
}

// normalize divides c by its sum.
func normalize(c []float64) {
	var sum float64
	for _, v := range c {
		sum += v
	}
	for t := range c {
		c[t] /= sum
	}
}

// cubicCoeffs sets the four weights of Keys' cubic convolution for a point
// at distance ratio right of the second tap, as the reference writes them.
func cubicCoeffs(c []float64, ratio, A float64) {
	r1, r2 := ratio+1, 1-ratio
	c[0] = ((A*r1-5*A)*r1+8*A)*r1 - 4*A
	c[1] = ((A+2)*ratio-(A+3))*ratio*ratio + 1
	c[2] = ((A+2)*r2-(A+3))*r2*r2 + 1
	c[3] = ((A*(r2+1)-5*A)*(r2+1)+8*A)*(r2+1) - 4*A
}

// cubicKernel is Keys' cubic convolution kernel at x, used by antialias.
func cubicKernel(x, A float64) float64 {
	x = math.Abs(x)
	x2 := x * x
	x3 := x * x2
	switch {
	case x <= 1:
		return (A+2)*x3 - (A+3)*x2 + 1
	case x < 2:
		return A*x3 - 5*A*x2 + 8*A*x - 4*A
	}
	return 0
}

// resizeNearest moves the elements nearest mode picks: one copyPlan when
// every axis is a repeat by an integer factor (the 2x fast path: a stride-0
// axis per factor), otherwise a tableCopy with one index table per axis.
func resizeNearest(opt *Options, op opRef, x *tensor.Tensor, p resizeParams, outShape []int, plans []*resizeAxis) (*tensor.Tensor, error) {
	repeats, identity := true, true
	for _, a := range plans {
		f := a.repeat()
		repeats = repeats && f > 0
		identity = identity && f == 1
	}
	if identity {
		return x.View(outShape...) // nothing moves: a view, as Reshape gives
	}
	// Both paths write every element (the table's extrapolated entries take
	// the fill): the storage need not be cleared first.
	y, err := opt.newOverwritten(op, x.DataType(), outShape)
	if err != nil || y.Len() == 0 {
		return y, err
	}
	inStrides := movement.ContiguousStrides(x.Shape())
	if repeats {
		// Output axis k is [a.in, f] with source strides [stride, 0]. The
		// last axis walks its factor outside its elements, so that the
		// innermost loop is a whole row rather than f copies of one element.
		var q movement.Plan
		outStrides := movement.ContiguousStrides(outShape)
		last := len(plans) - 1
		for k, a := range plans {
			f := a.repeat()
			if f > 1 && k == last {
				q.Shape = append(q.Shape, f)
				q.SrcStrides = append(q.SrcStrides, 0)
				q.DstStrides = append(q.DstStrides, outStrides[k])
			}
			q.Shape = append(q.Shape, a.in)
			q.SrcStrides = append(q.SrcStrides, inStrides[k])
			q.DstStrides = append(q.DstStrides, f*outStrides[k])
			if f > 1 && k != last {
				q.Shape = append(q.Shape, f)
				q.SrcStrides = append(q.SrcStrides, 0)
				q.DstStrides = append(q.DstStrides, outStrides[k])
			}
		}
		if err := q.Run(opt.moves(), y, x); err != nil {
			return nil, op.stopped(err)
		}
		return y, nil
	}
	entries := 0
	for _, a := range plans {
		entries = addCounts(entries, a.out)
	}
	if err := opt.scratch(op, "the index tables", entries, 8); err != nil {
		return nil, err
	}
	tc := movement.Table{Tables: make([][]int, len(plans))}
	for k, a := range plans {
		t := make([]int, a.out)
		for o := range t {
			if a.extrapolate != nil && a.extrapolate[o] {
				t[o] = -1
			} else {
				t[o] = a.index[o] * inStrides[k]
			}
		}
		tc.Tables[k] = t
	}
	var fill *tensor.Tensor
	if tc.HasFill() {
		if fill, err = convert.ScalarOf(x.DataType(), p.extrapolation); err != nil {
			return nil, op.wrap("extrapolation_value", err, "extrapolation_value %v", p.extrapolation)
		}
	}
	if err := tc.Run(opt.moves(), y, x, fill); err != nil {
		return nil, op.stopped(err)
	}
	return y, nil
}

// resizeInterpolate runs the linear or cubic passes, in float32 for the
// narrow float types and in float64 for double and the integers.
func resizeInterpolate(opt *Options, op opRef, x *tensor.Tensor, p resizeParams, outShape []int, plans []*resizeAxis) (*tensor.Tensor, error) {
	dt := x.DataType()
	if !convert.FloatComputable(dt) {
		return nil, op.errorf("type", "mode %s cannot compute in %v (nearest can)", p.mode, dt)
	}
	switch dt {
	case tensor.Float, tensor.Float16, tensor.BFloat16:
		return interpolatePasses[float32](opt, op, x, p, outShape, plans, true)
	}
	return interpolatePasses[float64](opt, op, x, p, outShape, plans, true)
}

// interpolatePasses resamples x axis after axis, innermost first; with fuse
// the two innermost axes go through the fused kernel of resize_plane.go.
func interpolatePasses[A convert.Float](opt *Options, op opRef, x *tensor.Tensor, p resizeParams, outShape []int, plans []*resizeAxis, fuse bool) (*tensor.Tensor, error) {
	dt := x.DataType()
	var todo []int // the axes to resample, innermost first
	for k := len(plans) - 1; k >= 0; k-- {
		if !plans[k].identity() {
			todo = append(todo, k)
		}
	}
	if len(todo) == 0 {
		return x.View(outShape...) // nothing moves: a view, as Reshape gives
	}
	// The input converted to the computing type is checked first: for
	// integers it takes up to eight times the input's bytes.
	var zero A
	computeSize := int(unsafe.Sizeof(zero))
	if !convert.NativeFloat[A](dt) {
		if err := opt.scratch(op, fmt.Sprintf("the input converted to %T", zero), x.Len(), computeSize); err != nil {
			return nil, err
		}
	}
	y, err := opt.newOverwritten(op, dt, outShape)
	if err != nil || y.Len() == 0 {
		return y, err
	}
	src, err := convert.LoadFloatsPolled[A](opt.orDefault().env.Ctx, x)
	if err := opt.cancelled(); err != nil {
		return nil, op.stopped(err)
	}
	if err != nil {
		return nil, op.wrap("type", err, "input")
	}
	var intoY []A // y's own storage, when the last pass can write there
	switch any(zero).(type) {
	case float32:
		if dt == tensor.Float {
			intoY = any(asElems[float32](y.Bytes())).([]A)
		}
	case float64:
		if dt == tensor.Double {
			intoY = any(asElems[float64](y.Bytes())).([]A)
		}
	}
	cur := append([]int{}, x.Shape()...)
	bufType := tensor.Float
	if _, ok := any(zero).(float64); ok {
		bufType = tensor.Double
	}
	// into returns the storage of the next step's output, of shape cur.
	into := func(last bool) ([]A, error) {
		if last && intoY != nil {
			return intoY, nil
		}
		if err := opt.checkSize(op, bufType, cur); err != nil {
			return nil, err
		}
		n, _ := tensor.NumElements(cur)
		if err := opt.charge(op, fmt.Sprintf("an intermediate of shape %v", cur), int64(n)*int64(computeSize)); err != nil {
			return nil, err
		}
		return make([]A, n), nil
	}
	if r := len(cur); fuse && todo[0] >= r-2 {
		// The two innermost axes in one step: H (axis r-2) and W (r-1),
		// either of which may stay.
		if err := opt.cancelled(); err != nil {
			return nil, op.stopped(err)
		}
		var h *resizeAxis
		var w *resizeRowFilter[A]
		planes := 1 // the planes, or the rows when H stays
		for _, d := range cur[:r-1] {
			planes *= d
		}
		for len(todo) > 0 && todo[0] >= r-2 {
			a := plans[todo[0]]
			if todo[0] == r-1 {
				w = newResizeRowFilter[A](a)
			} else {
				h = a
				planes /= a.in
			}
			cur[todo[0]] = a.out
			todo = todo[1:]
		}
		dst, err := into(len(todo) == 0)
		if err != nil {
			return nil, err
		}
		cores := max(1, min(opt.threads(), planes))
		if err := opt.scratch(op, "the rows of a plane per core", mulCounts(cores, resizePlanesScratch(h, w)), computeSize); err != nil {
			return nil, err
		}
		if err := resizePlanes(opt, dst, src, planes, h, w, A(p.extrapolation)); err != nil {
			return nil, op.stopped(err)
		}
		src = dst
	}
	for i, k := range todo {
		if err := opt.cancelled(); err != nil {
			return nil, op.stopped(err)
		}
		a := plans[k]
		outer, inner := 1, 1
		for _, d := range cur[:k] {
			outer *= d
		}
		for _, d := range cur[k+1:] {
			inner *= d
		}
		cur[k] = a.out
		dst, err := into(i == len(todo)-1)
		if err != nil {
			return nil, err
		}
		if err := resizePass(opt, dst, src, outer, inner, a, A(p.extrapolation)); err != nil {
			return nil, op.stopped(err)
		}
		src = dst
	}
	if intoY == nil {
		if err := convert.StoreFloatsPolled(opt.orDefault().env.Ctx, y, src); err != nil {
			if cerr := opt.cancelled(); cerr != nil {
				return nil, op.stopped(cerr)
			}
			return nil, op.wrap("type", err, "output")
		}
	}
	return y, nil
}

// resizePass resamples one axis: src is [outer, a.in, inner], dst
// [outer, a.out, inner], and every dst row is the weighted sum of the src
// rows its taps name. It polls the run's context row by row.
func resizePass[A convert.Float](opt *Options, dst, src []A, outer, inner int, a *resizeAxis, extrapolation A) error {
	taps := a.taps
	w := make([]A, len(a.weight))
	for i, v := range a.weight {
		w[i] = A(v)
	}
	rows := outer * a.out
	inRow := a.in * inner
	return parallelRange(opt, rows, rows*inner*taps, func(lo, hi int) error {
		c := opt.orDefault().canceller()
		if inner == 1 {
			// The innermost axis: one element a row. Walk (b, o) by
			// increment rather than a division per element.
			b, o := lo/a.out, lo%a.out
			s := src[b*inRow : b*inRow+inRow]
			for row := lo; row < hi; row++ {
				if a.extrapolate != nil && a.extrapolate[o] {
					dst[row] = extrapolation
				} else {
					base := o * taps
					var acc A
					for t := base; t < base+taps; t++ {
						acc += w[t] * s[a.index[t]]
					}
					dst[row] = acc
				}
				if o++; o == a.out && row+1 < hi {
					o, b = 0, b+1
					s = src[b*inRow : b*inRow+inRow]
					if c.Stop(a.out * taps) {
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
			b, o := row/a.out, row%a.out
			d := dst[row*inner : row*inner+inner]
			if a.extrapolate != nil && a.extrapolate[o] {
				for j := range d {
					d[j] = extrapolation
				}
				continue
			}
			s := src[b*inRow : b*inRow+inRow]
			idx, ws := a.index[o*taps:o*taps+taps], w[o*taps:o*taps+taps]
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
func (a *resizeAxis) String() string {
	return fmt.Sprintf("resizeAxis{in %d, out %d, taps %d, index %v, weight %v, extrapolate %v}", a.in, a.out, a.taps, a.index, a.weight, a.extrapolate)
}
