// MaxPool (ONNX MaxPool 1, 8, 10, 11, 12, 22): over X (N x C x D1 x ... x
// Dn), Y[n, c, o] is the largest X[n, c, i] of the window of o, i_k =
// o_k*stride_k - pad_begin_k + t_k*dilation_k for t_k in [0, kernel_k),
// padding excluded; Indices[n, c, o] is the flat index of that element in X
// (row-major, or column-major over the spatial axes with storage_order=1).
// 1 has no Indices output; 8 adds storage_order and Indices; 10 dilations
// and ceil_mode; 12 int8 and uint8; 22 bfloat16.
//
// Where ONNX is silent, as the fast kernel decides: ties go to the first
// maximum in row-major order over the window; a NaN wins, the first one; a
// window with no element of X (only padding) gives -inf (the type's
// minimum for integers) and index -1.
//
// Under SONNX (MaxPool 22, maxpool.md), with the ids the code reports:
// [R1] X is 4-D; [R3] auto_pad is NOTSET; [R4] ceil_mode 0; [R5]
// storage_order 0; TYPES: X is float16, float, double, int8 or uint8;
// dilations [C1], kernel_shape [C1], strides [C1]: every value > 0; pads
// [C1]: four pads, and pads: each >= 0; pads [C2]: every window holds an
// element of X. The ONNX rules are named after the attributes
// ([kernel_shape], [strides], [pads], [dilations], [auto_pad],
// [ceil_mode], [storage_order], [type]).
//
// The working group's informal specification: onnx/working-groups,
// safety-related-profile/sonnx/ops/spec/informal/maxpool/maxpool.md.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("MaxPool", []int{1, 8, 10, 11, 12, 22}, maxPool)
}

func maxPool(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
	op := opOf(n)
	x, err := requiredInput(op, in, 0, "X")
	if err != nil {
		return nil, err
	}
	a, err := readPoolAttrs(n, op.version >= 10, op.version >= 10)
	if err != nil {
		return nil, err
	}
	if op.version < 8 && n.Has("storage_order") {
		return nil, op.errorf("attribute", "attribute storage_order is not defined in version %d", op.version)
	}
	order, err := n.Int("storage_order", 0)
	if err != nil {
		return nil, err
	}
	if order != 0 && order != 1 {
		return nil, op.errorf("storage_order", "storage_order is %d, expected 0 or 1", order)
	}
	if err := positiveDims(opt, op, "input X", x.Shape()); err != nil { // [DIMS]
		return nil, err
	}
	dt, dX := x.DataType(), x.Shape()
	spatial := len(dX) - 2
	if sonnx(opt) {
		if err := maxPoolProfile(op, dt, spatial, a, order); err != nil {
			return nil, err
		}
	}
	switch { // [type]
	case dt == tensor.Float16 || dt == tensor.Float || dt == tensor.Double:
	case (dt == tensor.Int8 || dt == tensor.Uint8) && op.version >= 12:
	case dt == tensor.BFloat16 && op.version >= 22:
	default:
		return nil, op.errorf("type", "X is %v, which version %d does not accept", dt, op.version)
	}
	if a, err = checkPoolAttrs(op, spatial, a); err != nil {
		return nil, err
	}
	axes, err := poolGeometry(op, dX[2:], a)
	if err != nil {
		return nil, err
	}
	dY := append([]int{}, dX[:2]...)
	for _, ax := range axes {
		dY = append(dY, ax.out)
	}
	// The outputs' size before any loop over windows or taps (a kernel
	// and pads of 2^31 make few elements of X into 2^62 windows), where the
	// windows of one axis are too many to list: the fast engine refuses
	// their tables then, and both engines' [C4] and [NaN] come before the
	// outputs' size otherwise.
	windows := 0
	for _, ax := range axes {
		windows += ax.out
	}
	if windows < 0 || int64(windows) > opt.TensorLimit()/16 {
		if err := checkSize(opt, op, tensor.Int64, dY); err != nil {
			return nil, err
		}
	}
	// The real taps of window o on spatial axis k: t in [lo, hi).
	taps := func(k, o int) (lo, hi int) { return windowTaps(axes[k], o) }
	if sonnx(opt) { // [C4]
		for k, ax := range axes {
			for o := 0; o < ax.out; o++ {
				if lo, hi := taps(k, o); hi <= lo {
					return nil, op.errorf("pads [C2]", "axis %d: window %d holds no element of X, only padding", k+2, o)
				}
			}
		}
	}
	if sonnx(opt) { // [NaN]
		for i := range x.Len() {
			if i%cancelEvery == 0 {
				if err := cancelled(opt, op); err != nil {
					return nil, err
				}
			}
			if v := elementAs[float64](x, i); math.IsNaN(v) {
				return nil, op.errorf("NaN", "X[%d] (flat) is NaN: the profile's texts disagree on a NaN input (its float specification reads NaN as -inf, ONNX and its reference propagate it), so the profile refuses it", i)
			}
		}
	}
	// Indices are made only when the node asks for them; their size is
	// checked first (the larger) then, and under the profile, where the
	// fast engine sizes its index tables whatever the outputs.
	wantIndices := n.NumOutputs >= 2 && op.version >= 8
	if wantIndices || sonnx(opt) {
		if err := checkSize(opt, op, tensor.Int64, dY); err != nil {
			return nil, err
		}
	}
	y, err := newTensor(opt, op, dt, dY)
	if err != nil {
		return nil, err
	}
	var indices *tensor.Tensor
	var idx []int64
	if wantIndices {
		if indices, err = newTensor(opt, op, tensor.Int64, dY); err != nil {
			return nil, err
		}
		idx, _ = tensor.Data[int64](indices)
	}
	setIndex := func(flat int, v int64) {
		if wantIndices {
			idx[flat] = v
		}
	}
	xStrides := stridesOf(dX)
	i := make([]int, len(dX))
	first, real := make([]int, spatial), make([]int, spatial)
	var stop error
	work := cancelEvery // a look at the run before the first window
	// The window's taps are visited by one function made once (a closure
	// per window would be garbage the size of the output).
	var o []int
	best := -1
	visit := func(_ int, t []int) {
		if work++; work >= cancelEvery && stop == nil {
			work, stop = 0, cancelled(opt, op)
		}
		for k, ax := range axes {
			i[k+2] = o[k+2]*ax.stride - ax.padBegin + (first[k]+t[k])*ax.dilation
		}
		at := ravel(i, xStrides)
		v := elementAs[float64](x, at)
		switch {
		case best < 0:
			best = at
		case math.IsNaN(elementAs[float64](x, best)):
		case math.IsNaN(v) || v > elementAs[float64](x, best):
			best = at
		}
	}
	forEachIndexWhile(dY, func(flat int, out []int) bool {
		if work++; work >= cancelEvery && stop == nil {
			work, stop = 0, cancelled(opt, op)
		}
		if stop != nil {
			return false
		}
		o, best = out, -1
		i[0], i[1] = o[0], o[1]
		// Padding never wins: only the real taps of the window count.
		for k := range axes {
			lo, hi := taps(k, o[k+2])
			first[k], real[k] = lo, max(hi-lo, 0)
		}
		forEachIndex(real, visit)
		if best < 0 { // a window of padding only
			setIndex(flat, -1)
			_ = storeFloat(y, flat, lowest(dt)) // every type MaxPool takes stores
			return true
		}
		copyElement(y, flat, x, best)
		setIndex(flat, int64(best))
		if order == 1 {
			setIndex(flat, int64(columnMajor(best, dX)))
		}
		return true
	})
	if stop != nil {
		return nil, stop
	}
	if wantIndices {
		return values(y, indices), nil
	}
	return values(y), nil
}

// windowTaps returns the real taps of window o on axis ax, the t in
// [lo, hi) whose element o*stride - padBegin + t*dilation lies in X (hi <=
// lo: none), by arithmetic rather than by trying every tap of a kernel
// that may be 2^31 long.
func windowTaps(ax poolAxis, o int) (lo, hi int) {
	start, d := int64(o)*int64(ax.stride)-int64(ax.padBegin), int64(ax.dilation)
	first := int64(0)
	if start < 0 {
		first = (-start + d - 1) / d
	}
	last := min(int64(ax.kernel)-1, (int64(ax.in)-1-start)/d)
	if int64(ax.in)-1-start < 0 || first > last {
		return 0, 0
	}
	return int(first), int(last) + 1
}

// maxPoolProfile checks the SONNX restrictions and constraints that come
// before the geometry.
func maxPoolProfile(op opRef, dt tensor.DataType, spatial int, a poolAttrs, order int64) error {
	if spatial != 2 {
		return op.errorf("R1", "X must have exactly 2 spatial axes (rank 4), got rank %d", spatial+2)
	}
	if a.autoPad != "" && a.autoPad != "NOTSET" {
		return op.errorf("R3", "auto_pad must be NOTSET, got %q", a.autoPad)
	}
	if a.ceilMode {
		return op.errorf("R4", "ceil_mode must be 0")
	}
	if order != 0 {
		return op.errorf("R5", "storage_order must be 0, got %d", order)
	}
	switch dt {
	case tensor.Float16, tensor.Float, tensor.Double, tensor.Int8, tensor.Uint8:
	default:
		return op.errorf("TYPES", "X is %v; the profile allows float16, float, double, int8 and uint8", dt)
	}
	for _, c := range []struct {
		name, rule string
		v          []int
	}{{"dilations", "dilations [C1]", a.dilations}, {"kernel_shape", "kernel_shape [C1]", a.kernel}, {"strides", "strides [C1]", a.strides}} {
		for i, v := range c.v {
			if v <= 0 {
				return op.errorf(c.rule, "%s[%d] is %d, must be > 0", c.name, i, v)
			}
		}
	}
	if len(a.pads) != 4 {
		return op.errorf("pads [C1]", "pads must have 4 entries, got %d", len(a.pads))
	}
	for i, p := range a.pads {
		if p < 0 {
			return op.errorf("pads", "pads[%d] is %d, must be >= 0", i, p)
		}
	}
	if len(a.kernel) == 2 {
		for i, p := range a.pads {
			k, d := a.kernel[i%2], 1
			if len(a.dilations) == 2 {
				d = a.dilations[i%2]
			}
			if ek := dilatedKernel(k, d); ek <= int64(p) {
				return op.errorf("pads [C2]", "pads[%d] is %d, not below the dilated kernel %d", i, p, ek)
			}
		}
	}
	return nil
}

// lowest is the value of a window of padding only: -inf for the float
// types, the least value for the integers.
func lowest(dt tensor.DataType) float64 {
	switch dt {
	case tensor.Int8:
		return math.MinInt8
	case tensor.Uint8:
		return 0
	}
	return math.Inf(-1)
}

// columnMajor returns the flat index of element at of a tensor of shape dX
// with its spatial axes (2 on) taken column-major: N and C as row-major,
// then the first spatial axis fastest.
func columnMajor(at int, dX []int) int {
	i := unravel(at, dX)
	plane := numElements(dX[2:])
	col, stride := 0, 1
	for k := 2; k < len(dX); k++ {
		col += i[k] * stride
		stride *= dX[k]
	}
	return (i[0]*dX[1]+i[1])*plane + col
}
