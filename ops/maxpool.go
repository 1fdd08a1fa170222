// MaxPool slides a window over the spatial axes of X (N x C x D1 x ... x Dn)
// and keeps the largest element of each window; the optional second output
// Indices holds where each maximum was found, as a flat int64 index into the
// unpadded X (N*C*D1*...*Dn elements), row-major, or column-major over the
// spatial axes with storage_order=1.
//
// Versions: 1 (kernel_shape, strides, pads, auto_pad; float16, float,
// double; one output), 8 (storage_order and the Indices output), 10
// (dilations and ceil_mode), 11 (no change we see), 12 (int8 and uint8), 22
// (bfloat16). Any number of spatial axes.
//
// What this implementation decides where ONNX is silent:
//   - Padding never wins: windows only look at real elements. A window that
//     holds no real element at all (pads as large as the dilated kernel)
//     gives the padding value (-inf, or the type's minimum) and index -1.
//   - Ties go to the first maximum in row-major order over the window.
//   - NaN propagates: a window that holds a NaN gives its first NaN and that
//     NaN's index (as numpy's max and PyTorch do; onnxruntime keeps a NaN
//     only when it is the window's first element, see docs/divergences.md).
//   - The values are copied from X by their index, so the output is bit for
//     bit an element of X; float16 and bfloat16 compare by value, as
//     float32 would.
//
// Under the SONNX profile (based on MaxPool 22) the kernel also checks, with
// these ids, what sonnx-notes.md lists:
//
//	[R1] (transient) exactly 2 spatial axes: X is 4-D
//	[R2] every attribute is given explicitly (a model-level rule: the
//	     profile checker sees the node's attributes, the kernel only values)
//	[R3] auto_pad is NOTSET
//	[R4] ceil_mode is 0
//	[R5] storage_order is 0
//	[TYPES] X is float16, float, double, int8 or uint8 (its type list)
//	dilations [C1], kernel_shape [C1], strides [C1] every value is > 0
//	pads [C1] pads has 4 entries (each >= 0: ONNX's "pads")
//	pads [C2] every window holds a real element: the dilated kernel
//	     d*(k-1)+1 is larger than each pad, and no window falls between two
//	     taps
//	[NaN] X holds no NaN: the profile's float specification reads a NaN as
//	     -inf where ONNX and its reference propagate it; what the profile
//	     leaves in doubt, it refuses
//	[DIMS] every dimension of X is positive, as every tensor of the working
//	     group's formal specification

package ops

import (
	"encoding/binary"
	"math"
	"slices"
	"sync"

	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/ops/internal/parallel"
	"github.com/onnxshape/onnxshape/ops/internal/window"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("MaxPool", []int{1}, [2]int{1, 1}, [2]int{1, 1}, maxPoolNode)
	register("MaxPool", []int{8, 10, 11, 12, 22}, [2]int{1, 1}, [2]int{1, 2}, maxPoolNode)
}

// MaxPoolOptions are the attributes of MaxPool. The zero value of each field
// is the ONNX default; KernelShape is required. Slices hold one value per
// spatial axis (Pads two: all the beginnings, then all the ends).
type MaxPoolOptions struct {
	AutoPad      string // NOTSET (or ""), SAME_UPPER, SAME_LOWER or VALID
	CeilMode     bool   // ceil rather than floor for the output length
	Dilations    []int  // nil: 1 on every axis
	KernelShape  []int
	Pads         []int // nil: 0 on every side
	StorageOrder int   // 0: Indices row-major; 1: column-major over the spatial axes
	Strides      []int // nil: 1 on every axis
}

// MaxPool returns the max pooling of x and the indices of the maxima (ONNX
// MaxPool, version 22).
func MaxPool(x *tensor.Tensor, o MaxPoolOptions, opts ...Option) (y, indices *tensor.Tensor, err error) {
	op := opRef{"MaxPool", 22}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, nil, err
	}
	return maxPool(opt, op, x, o)
}

func maxPoolNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	if f := n.fusion; f != nil && f.qdqPool && opt.fusing() {
		if y, done, err := n.runQDQPool(opt, x); done {
			if err != nil {
				return nil, err
			}
			return opt.result(y), nil
		}
	}
	valuesOnly := n.NumOutputs < 2 || n.Version < 8
	if g := n.lastPool(); valuesOnly && g != nil && g.fits(x) && opt.orDefault().Profile != ProfileSONNX {
		// A run with the input of the last one reads no attribute:
		// maxPoolValues takes the geometry the node kept.
		y, err := maxPoolValues(opt, op, n, x, MaxPoolOptions{})
		if err != nil {
			return nil, err
		}
		return opt.result(y), nil
	}
	if g := n.lastPoolIndices(); !valuesOnly && g != nil && g.fits(x) && opt.orDefault().Profile != ProfileSONNX {
		// As above, with Indices: maxPoolNodeRun takes the kept geometry.
		y, indices, err := maxPoolNodeRun(opt, op, n, x, MaxPoolOptions{})
		if err != nil {
			return nil, err
		}
		return values(y, indices), nil
	}
	a, err := readPoolAttrs(n, n.Version >= 10, n.Version >= 10)
	if err != nil {
		return nil, err
	}
	if n.Version < 8 && n.Has("storage_order") {
		return nil, op.errorf("attribute", "attribute storage_order is not defined in version %d", n.Version)
	}
	order, err := n.Int("storage_order", 0)
	if err != nil {
		return nil, err
	}
	if order != 0 && order != 1 {
		return nil, op.errorf("storage_order", "storage_order is %d, expected 0 or 1", order)
	}
	o := MaxPoolOptions{AutoPad: a.AutoPad, CeilMode: a.CeilMode, Dilations: a.Dilations,
		KernelShape: a.Kernel, Pads: a.Pads, StorageOrder: int(order), Strides: a.Strides}
	if valuesOnly {
		y, err := maxPoolValues(opt, op, n, x, o)
		if err != nil {
			return nil, err
		}
		return opt.result(y), nil
	}
	y, indices, err := maxPoolNodeRun(opt, op, n, x, o)
	if err != nil {
		return nil, err
	}
	return values(y, indices), nil
}

// maxPoolTypeOK reports whether a version of MaxPool accepts element type dt.
func maxPoolTypeOK(version int, dt tensor.DataType) bool {
	switch dt {
	case tensor.Float16, tensor.Float, tensor.Double:
		return true
	case tensor.Int8, tensor.Uint8:
		return version >= 12
	case tensor.BFloat16:
		return version >= 22
	}
	return false
}

// maxPoolShape checks the constraints and returns the geometry of every
// spatial axis; the output shape (of Y and of Indices) is maxPoolOutShape.
// Under the profile it also returns the window tables it built to check
// C4, for the kernel to reuse; nil otherwise.
func maxPoolShape(opt *Options, op opRef, dt tensor.DataType, shape []int, o MaxPoolOptions) ([]window.Axis, *window.Windows, error) {
	spatial := len(shape) - 2
	if opt.orDefault().Profile == ProfileSONNX {
		if err := maxPoolSONNX(op, dt, spatial, o); err != nil {
			return nil, nil, err
		}
	}
	if !maxPoolTypeOK(op.version, dt) {
		return nil, nil, op.errorf("type", "X is %v, which version %d does not accept", dt, op.version)
	}
	if o.StorageOrder != 0 && o.StorageOrder != 1 {
		return nil, nil, op.errorf("storage_order", "storage_order is %d, expected 0 or 1", o.StorageOrder)
	}
	a, err := checkPoolAttrs(op, spatial, window.Attrs{Kernel: o.KernelShape, Strides: o.Strides,
		Pads: o.Pads, Dilations: o.Dilations, AutoPad: o.AutoPad, CeilMode: o.CeilMode})
	if err != nil {
		return nil, nil, err
	}
	axes, err := poolGeometry(op, shape[2:], a)
	if err != nil {
		return nil, nil, err
	}
	if opt.orDefault().Profile != ProfileSONNX {
		return axes, nil, nil
	}
	w, err := opt.poolWindows(op, axes)
	if err != nil {
		return nil, nil, err
	}
	if w.Empty {
		for k := range axes {
			for o, c := range w.Count[k] {
				if c == 0 {
					return nil, nil, op.errorf("pads [C2]", "axis %d: window %d holds no element of X, only padding", k+2, o)
				}
			}
		}
	}
	return axes, w, nil
}

// maxPoolSONNX checks the profile's restrictions and constraints that come
// before the geometry.
func maxPoolSONNX(op opRef, dt tensor.DataType, spatial int, o MaxPoolOptions) error {
	if spatial != 2 {
		return op.errorf("R1", "X must have exactly 2 spatial axes (rank 4), got rank %d", spatial+2)
	}
	if o.AutoPad != "" && o.AutoPad != window.AutoPadNotSet {
		return op.errorf("R3", "auto_pad must be NOTSET, got %q", o.AutoPad)
	}
	if o.CeilMode {
		return op.errorf("R4", "ceil_mode must be 0")
	}
	if o.StorageOrder != 0 {
		return op.errorf("R5", "storage_order must be 0, got %d", o.StorageOrder)
	}
	switch dt {
	case tensor.Float16, tensor.Float, tensor.Double, tensor.Int8, tensor.Uint8:
	default:
		return op.errorf("TYPES", "X is %v; the profile allows float16, float, double, int8 and uint8", dt)
	}
	for _, c := range []struct {
		name, rule string
		v          []int
	}{{"dilations", "dilations [C1]", o.Dilations}, {"kernel_shape", "kernel_shape [C1]", o.KernelShape}, {"strides", "strides [C1]", o.Strides}} {
		for i, x := range c.v {
			if x <= 0 {
				return op.errorf(c.rule, "%s[%d] is %d, must be > 0", c.name, i, x)
			}
		}
	}
	if len(o.Pads) != 4 {
		return op.errorf("pads [C1]", "pads must have 4 entries, got %d", len(o.Pads))
	}
	for i, p := range o.Pads {
		if p < 0 {
			return op.errorf("pads", "pads[%d] is %d, must be >= 0", i, p)
		}
	}
	if len(o.KernelShape) == 2 {
		for i, p := range o.Pads {
			k, d := o.KernelShape[i%2], 1
			if len(o.Dilations) == 2 {
				d = o.Dilations[i%2]
			}
			if ek := window.DilatedKernel(k, d); ek <= int64(p) {
				return op.errorf("pads [C2]", "pads[%d] is %d, not below the dilated kernel %d", i, p, ek)
			}
		}
	}
	return nil
}

// firstNaN returns the flat index of the first NaN of a float tensor x, or
// -1 when it holds none (or is not of a float type MaxPool takes). It reads
// the bits, pollWork elements at a time, and stops when the run is
// cancelled.
func firstNaN(opt *Options, x *tensor.Tensor) (int, error) {
	c := opt.canceller()
	scan := func(n int, isNaN func(i int) bool) (int, error) {
		for lo := 0; lo < n; lo += pollWork {
			if c.Stop(pollWork) {
				return -1, c.Err
			}
			for i := lo; i < min(lo+pollWork, n); i++ {
				if isNaN(i) {
					return i, nil
				}
			}
		}
		return -1, nil
	}
	b := x.Bytes()
	switch x.DataType() {
	case tensor.Float:
		v := asElems[uint32](b)
		return scan(len(v), func(i int) bool { return v[i]&0x7FFFFFFF > 0x7F800000 })
	case tensor.Double:
		v := asElems[uint64](b)
		return scan(len(v), func(i int) bool { return v[i]&0x7FFFFFFFFFFFFFFF > 0x7FF0000000000000 })
	case tensor.Float16:
		v := asElems[uint16](b)
		return scan(len(v), func(i int) bool { return v[i]&0x7FFF > float16Inf })
	case tensor.BFloat16:
		v := asElems[uint16](b)
		return scan(len(v), func(i int) bool { return v[i]&0x7FFF > bfloat16Inf })
	}
	return -1, nil
}

// maxPoolOutShape is the shape of both outputs: N, C, then the output
// length of every spatial axis.
func maxPoolOutShape(shape []int, axes []window.Axis) []int {
	out := append([]int{}, shape[:2]...)
	for _, ax := range axes {
		out = append(out, ax.Out)
	}
	return out
}

func maxPool(opt *Options, op opRef, x *tensor.Tensor, o MaxPoolOptions) (*tensor.Tensor, *tensor.Tensor, error) {
	return maxPoolNodeRun(opt, op, nil, x, o)
}

// maxPoolNodeRun is maxPool for node n (nil: none). Outside the profile the
// node keeps the geometry, the window tables and the rank plan of its last
// run (maxPoolIndexGeometry, in Node.pool), and the next run on an input of
// the same type and shape takes them, o unread, charged as if built.
func maxPoolNodeRun(opt *Options, op opRef, n *Node, x *tensor.Tensor, o MaxPoolOptions) (*tensor.Tensor, *tensor.Tensor, error) {
	if err := checkInput(op, "X", x); err != nil {
		return nil, nil, err
	}
	if err := opt.positiveDims(op, "input X", x.Shape()); err != nil {
		return nil, nil, err
	}
	opt = opt.orDefault()
	var axes []window.Axis
	var w *window.Windows
	kept := n.lastPoolIndices()
	if kept != nil && kept.fits(x) && opt.Profile != ProfileSONNX {
		axes, o.StorageOrder = kept.axes, kept.order
	} else {
		kept = nil
		var err error
		if axes, w, err = maxPoolShape(opt, op, x.DataType(), x.Shape(), o); err != nil {
			return nil, nil, err
		}
	}
	if opt.Profile == ProfileSONNX {
		at, err := firstNaN(opt, x)
		if err != nil {
			return nil, nil, op.stopped(err)
		}
		if at >= 0 {
			return nil, nil, op.errorf("NaN", "X[%d] (flat) is NaN: the profile's texts disagree on a NaN input (its float specification reads NaN as -inf, ONNX and its reference propagate it), so the profile refuses it", at)
		}
	}
	var outShape []int
	if kept != nil {
		outShape = kept.shape
	} else {
		outShape = maxPoolOutShape(x.Shape(), axes)
	}
	if err := opt.checkSize(op, tensor.Int64, outShape); err != nil {
		return nil, nil, err
	}
	// Every element of both outputs is written: a window's maximum and
	// index, or the padding value and -1.
	y, err := opt.newOverwritten(op, x.DataType(), outShape)
	if err != nil {
		return nil, nil, err
	}
	indices, err := opt.newOverwritten(op, tensor.Int64, outShape)
	if err != nil {
		return nil, nil, err
	}
	if y.Len() == 0 {
		return y, indices, nil // no window to look at: build no tables
	}
	var plan *rankPlan // nil where the general walk serves
	if kept != nil {
		// The tables are the node's, built at an earlier run; the run is
		// charged for them as if it built them.
		if err := opt.chargeWindows(op, axes); err != nil {
			return nil, nil, err
		}
		w, plan = kept.w, kept.rank
	} else {
		if w == nil {
			if w, err = opt.poolWindows(op, axes); err != nil {
				return nil, nil, err
			}
		}
		plan = newRankPlan(w)
		if n != nil && opt.Profile != ProfileSONNX {
			n.pool.Store(&maxPoolIndexGeometry{dt: x.DataType(), xs: slices.Clone(x.Shape()), shape: outShape, axes: axes, w: w, rank: plan, order: o.StorageOrder})
		}
	}
	idx, _ := tensor.Data[int64](indices)
	planes := x.Shape()[0] * x.Shape()[1]
	taps := 1 // the most real taps of one window: at most a plane
	for _, counts := range w.Count {
		most := 1
		for _, c := range counts {
			most = max(most, c)
		}
		taps *= most
	}
	work := y.Len() * taps
	if err := maxPoolScratch(opt, op, w, planes); err != nil {
		return nil, nil, err
	}
	err = parallelRange(opt, planes, work, func(lo, hi int) error {
		c := opt.canceller()
		// One plane's ranks (or for float64 its keys) and the scratch of
		// plan.maxima, kept between calls: a model run in a loop then
		// allocates nothing for them.
		keysBuf, rowMaxBuf := int64Scratch.Get().(*[]int64), int64Scratch.Get().(*[]int64)
		keys, rowMax := *keysBuf, *rowMaxBuf
		defer func() {
			*keysBuf, *rowMaxBuf = keys, rowMax
			int64Scratch.Put(keysBuf)
			int64Scratch.Put(rowMaxBuf)
		}()
		for p := lo; p < hi; p++ {
			if c.Stop(w.InPlane) {
				return c.Err
			}
			base := p * w.InPlane
			pidx := idx[p*w.OutPlane : (p+1)*w.OutPlane]
			switch {
			case x.DataType() == tensor.Double:
				v := asElems[uint64](x.Bytes())
				keys = float64Keys(keys, v[base:base+w.InPlane])
				argMaxPlane(keys, w, pidx, int64(base), &c)
			case plan != nil:
				keys = planeRanks(keys, x, base, base+w.InPlane)
				plan.maxima(keys, pidx, int64(base), &rowMax, &c)
			default:
				keys = planeRanks(keys, x, base, base+w.InPlane)
				argMaxRanks(keys, w, pidx, int64(base), &c)
			}
			if c.Err != nil {
				return c.Err
			}
			movement.GatherCopy(y, p*w.OutPlane, x, pidx)
			if o.StorageOrder == 1 && len(w.InShape) > 1 {
				columnMajor(pidx, int64(base), w)
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, op.stopped(err)
	}
	if w.Empty {
		if err := fillEmptyWindows(opt, y, idx); err != nil {
			return nil, nil, op.stopped(err)
		}
	}
	return y, indices, nil
}

// maxPoolScratch checks and charges, before the kernel runs, what it
// allocates besides its outputs: on each core, the ranks (or keys) of one
// plane, and the row maxima of the rank plan, at most a plane and an output
// plane more (newRankPlan's bound), 8 bytes each; and the rank plan's
// tables, a few ints per input row and per output column.
func maxPoolScratch(opt *Options, op opRef, w *window.Windows, planes int) error {
	cores := max(1, min(opt.threads(), planes))
	perCore := addCounts(mulCounts(w.InPlane, 2), w.OutPlane)
	plan := addCounts(mulCounts(w.InShape[0], 2), mulCounts(w.OutShape[len(w.OutShape)-1], 4))
	elems := addCounts(mulCounts(cores, perCore), plan)
	return opt.scratch(op, "the keys and row maxima of a plane per core", elems, 8)
}

// The kernel compares keys, not values: every element of a plane is first
// mapped to an integer whose order is the order MaxPool compares in, so that
// the window loops are integer maxima that compile to conditional moves,
// with no branch on the data. For the float types the key of x is its
// magnitude's bits with x's sign, which orders the numbers as < does and
// gives -0 and +0 one key (they tie); every NaN gets the largest key, above
// +inf, so that a window's first NaN wins and nothing beats it.
//
// The keys of all the types but float64 fit in 32 bits. Each of their
// elements gets a rank: its key in the high half, and in the low half its
// position in the plane, reversed (2^32-1 - position). A window's largest
// rank is then its largest key and, of the elements with that key, the
// first in row-major order, as ties need: the window's maximum is a plain
// maximum of ranks, which needs no order of the taps and no index beside
// it. float64 keys fill 64 bits; the float64 kernel keeps the index of the
// first maximum as it walks the window in row-major order.

// The bits of +inf in float16 and in bfloat16.
const (
	float16Inf  = 0x7C00
	bfloat16Inf = 0x7F80
)

// float32Key is the key of the float32 number whose bits are b.
func float32Key(b uint32) int32 {
	m := int32(b & 0x7FFFFFFF)
	s := int32(b) >> 31 // -1 for a negative number, else 0
	k := (m ^ s) - s    // m or -m
	if m > 0x7F800000 {
		k = math.MaxInt32
	}
	return k
}

// halfKey is the key of the float16 or bfloat16 number whose bits are b,
// where the bits of +inf are inf.
func halfKey(b uint16, inf int32) int32 {
	m := int32(b & 0x7FFF)
	s := int32(int16(b)) >> 15
	k := (m ^ s) - s
	if m > inf {
		k = math.MaxInt32
	}
	return k
}

// rank is the rank of the element of key k at position pos in its plane.
func rank(k int32, pos int) int64 {
	return int64(k)<<32 | int64(^uint32(pos))
}

// rankPos is the position in its plane of the element of rank r.
func rankPos(r int64) int64 {
	return int64(^uint32(r))
}

// planeRanks returns the ranks of the elements lo to hi of x, one plane, in
// buf when it is large enough.
func planeRanks(buf []int64, x *tensor.Tensor, lo, hi int) []int64 {
	switch x.DataType() {
	case tensor.Float:
		return float32Ranks(buf, asElems[uint32](x.Bytes())[lo:hi])
	case tensor.Float16:
		return halfRanks(buf, asElems[uint16](x.Bytes())[lo:hi], float16Inf)
	case tensor.BFloat16:
		return halfRanks(buf, asElems[uint16](x.Bytes())[lo:hi], bfloat16Inf)
	case tensor.Int8:
		v, _ := tensor.Data[int8](x)
		return intRanks(buf, v[lo:hi])
	case tensor.Uint8:
		v, _ := tensor.Data[uint8](x)
		return intRanks(buf, v[lo:hi])
	}
	return nil
}

// float32Ranks returns the ranks of a plane of float32 numbers whose bits
// are v, in buf when it is large enough. The rank functions are kept out of
// line: inlined in the plane loop, their loops would spill registers.
//
//go:noinline
func float32Ranks(buf []int64, v []uint32) []int64 {
	buf = growKeys(buf, len(v))[:len(v)]
	for i, b := range v {
		buf[i] = rank(float32Key(b), i)
	}
	return buf
}

// halfRanks returns the ranks of a plane of float16 or bfloat16 numbers
// whose bits are v and whose +inf has the bits inf, in buf when it is large
// enough.
//
//go:noinline
func halfRanks(buf []int64, v []uint16, inf int32) []int64 {
	buf = growKeys(buf, len(v))[:len(v)]
	for i, b := range v {
		buf[i] = rank(halfKey(b, inf), i)
	}
	return buf
}

// intRanks returns the ranks of a plane of small integers, whose keys are
// the integers themselves, in buf when it is large enough.
//
//go:noinline
func intRanks[T int8 | uint8](buf []int64, v []T) []int64 {
	buf = growKeys(buf, len(v))[:len(v)]
	for i, x := range v {
		buf[i] = rank(int32(x), i)
	}
	return buf
}

// float64Keys returns the keys of a plane of float64 numbers whose bits
// are v, in buf when it is large enough.
//
//go:noinline
func float64Keys(buf []int64, v []uint64) []int64 {
	buf = growKeys(buf, len(v))[:len(v)]
	for i, b := range v {
		m := int64(b & 0x7FFFFFFFFFFFFFFF)
		s := int64(b) >> 63
		k := (m ^ s) - s
		if m > 0x7FF0000000000000 {
			k = math.MaxInt64
		}
		buf[i] = k
	}
	return buf
}

// int64Scratch holds the scratch slices of MaxPool's workers between calls.
var int64Scratch = sync.Pool{New: func() any { return new([]int64) }}

func growKeys(buf []int64, n int) []int64 {
	if cap(buf) < n {
		return make([]int64, n)
	}
	return buf[:n]
}

// rankPlan is the MaxPool kernel of ranks for one or two spatial axes (1-D
// pooling is 2-D pooling under an axis of length 1), the common case. A
// maximum of ranks can be taken in any order, so it is taken in two passes:
// along each input row, the maximum of every window's columns; then down
// the window's rows, the maximum of those. Each input row's maxima are found
// once and serve every window that reads the row (3 x 3 windows with stride
// 2 share one row in two). The plan holds what does not change from plane
// to plane.
type rankPlan struct {
	w    *window.Windows // as2D
	rows []int           // the input rows some window reads, in order
	slot []int           // per input row, its place in rows
	runs []colRun        // the windows of a row
}

// colRun is a run of windows along a row, outputs lo to hi, of the same
// number of taps, the first taps step apart. The interior windows make one
// run: they all have the whole kernel, a stride apart.
type colRun struct{ lo, hi, taps, step int }

// newRankPlan returns the plan for the windows w, or nil where the general
// walk (argMaxRanks) serves: more than two spatial axes, a plane of more
// than 2^32 elements, or row maxima that would take more room than the
// plane and its output (large pads).
func newRankPlan(w *window.Windows) *rankPlan {
	if len(w.OutShape) > 2 || int64(w.InPlane) > math.MaxUint32 {
		return nil
	}
	w = w.As2D()
	q := &rankPlan{w: w, slot: make([]int, w.InShape[0])}
	read := make([]bool, w.InShape[0])
	for oh, h0 := range w.First[0] {
		for i := range w.Count[0][oh] {
			read[h0+i*w.Dilation[0]] = true
		}
	}
	for r, ok := range read {
		if ok {
			q.slot[r] = len(q.rows)
			q.rows = append(q.rows, r)
		}
	}
	if outW := w.OutShape[1]; outW > 0 && len(q.rows) > (w.InPlane+w.OutPlane)/outW {
		return nil
	}
	cols, counts := w.First[1], w.Count[1]
	for lo := 0; lo < len(cols); {
		n, step, hi := counts[lo], 0, lo+1
		if hi < len(cols) {
			step = cols[hi] - cols[lo]
		}
		for hi < len(cols) && counts[hi] == n && cols[hi]-cols[hi-1] == step {
			hi++
		}
		q.runs = append(q.runs, colRun{lo, hi, n, step})
		lo = hi
	}
	return q
}

// maxima writes, for every window of one plane whose ranks are ranks, base
// plus the position in the plane of the window's largest rank, or -1 for a
// window without a real element. rowMax is scratch, grown as needed. It
// stops early, row by row, when c says the run is cancelled.
func (q *rankPlan) maxima(ranks []int64, idx []int64, base int64, rowMax *[]int64, c *canceller) {
	w := q.w
	inW, outW := w.InShape[1], w.OutShape[1]
	size := len(q.rows) * outW
	if cap(*rowMax) < size {
		*rowMax = make([]int64, size)
	}
	rm := (*rowMax)[:size] // the maxima of row q.rows[i] at rm[i*outW:]
	colStep := w.TapStride[1]
	for i, r := range q.rows {
		if c.Stop(inW) {
			return
		}
		src, dst := ranks[r*inW:(r+1)*inW], rm[i*outW:(i+1)*outW]
		for _, run := range q.runs {
			first := w.First[1][run.lo]
			switch {
			case run.taps == 0: // an empty window, written below
			case run.taps == 3 && colStep == 1:
				rowMax3(src, first, run.step, dst[run.lo:run.hi])
			case run.taps == 2 && colStep == 1:
				rowMax2(src, first, run.step, dst[run.lo:run.hi])
			default:
				rowMaxN(src, first, run.step, run.taps, colStep, dst[run.lo:run.hi])
			}
		}
	}
	for oh, h0 := range w.First[0] {
		if c.Stop(outW * w.Count[0][oh]) {
			return
		}
		out := idx[oh*outW : (oh+1)*outW]
		row := func(i int) []int64 {
			r := q.slot[h0+i*w.Dilation[0]]
			return rm[r*outW : (r+1)*outW]
		}
		switch n := w.Count[0][oh]; n {
		case 0:
			for ow := range out {
				out[ow] = -1
			}
			continue
		case 3:
			colMax3(row(0), row(1), row(2), out, base)
		case 2:
			colMax2(row(0), row(1), out, base)
		default:
			copy(out, row(0))
			for i := 1; i < n; i++ {
				colMaxInto(out, row(i))
			}
			for ow, r := range out {
				out[ow] = base + rankPos(r)
			}
		}
		for _, run := range q.runs {
			if run.taps == 0 {
				for ow := run.lo; ow < run.hi; ow++ {
					out[ow] = -1
				}
			}
		}
	}
}

// rowMax3 writes to dst the maximum of each window of 3 adjacent elements
// of src, the first at first and the next ones step apart.
//
//go:noinline
func rowMax3(src []int64, first, step int, dst []int64) {
	c := first
	for j := range dst {
		s := src[c : c+3]
		dst[j] = max(s[0], s[1], s[2])
		c += step
	}
}

// rowMax2 is rowMax3 for windows of 2 adjacent elements.
//
//go:noinline
func rowMax2(src []int64, first, step int, dst []int64) {
	c := first
	for j := range dst {
		s := src[c : c+2]
		dst[j] = max(s[0], s[1])
		c += step
	}
}

// rowMaxN is rowMax3 for windows of n elements colStep apart.
//
//go:noinline
func rowMaxN(src []int64, first, step, n, colStep int, dst []int64) {
	c := first
	for j := range dst {
		best := src[c]
		for t := c + colStep; t < c+n*colStep; t += colStep {
			best = max(best, src[t])
		}
		dst[j] = best
		c += step
	}
}

// colMax3 writes to out base plus the position of the largest of a, b and
// c at each column.
//
//go:noinline
func colMax3(a, b, c []int64, out []int64, base int64) {
	a, b, c = a[:len(out)], b[:len(out)], c[:len(out)]
	for i := range out {
		out[i] = base + rankPos(max(a[i], b[i], c[i]))
	}
}

// colMax2 is colMax3 for two rows.
//
//go:noinline
func colMax2(a, b []int64, out []int64, base int64) {
	a, b = a[:len(out)], b[:len(out)]
	for i := range out {
		out[i] = base + rankPos(max(a[i], b[i]))
	}
}

// colMaxInto sets acc to the larger of acc and a at each column.
//
//go:noinline
func colMaxInto(acc, a []int64) {
	a = a[:len(acc)]
	for i, v := range a {
		acc[i] = max(acc[i], v)
	}
}

// argMaxRanks is the general walk over ranks, for the geometries that have
// no rankPlan.
func argMaxRanks(ranks []int64, w *window.Windows, idx []int64, base int64, c *canceller) {
	if int64(w.InPlane) > math.MaxUint32 {
		// The positions do not fit in the low half: compare the keys
		// alone, in row-major order.
		for i := range ranks {
			ranks[i] &^= math.MaxUint32
		}
	}
	// Otherwise the largest rank of a window is its first largest key, which
	// the walk finds as well.
	argMaxPlane(ranks, w, idx, base, c)
}

// argMaxPlane writes, for every window of one plane whose keys are keys,
// base plus the position in the plane of the window's first maximum in
// row-major order, or -1 for a window without a real element. It stops
// early, a few windows at a time, when c says the run is cancelled.
func argMaxPlane(keys []int64, w *window.Windows, idx []int64, base int64, c *canceller) {
	if len(w.OutShape) <= 2 {
		argMaxPlane2D(keys, w.As2D(), idx, base, c)
		return
	}
	r := len(w.OutShape)
	o := make([]int, r)   // output coordinates
	tap := make([]int, r) // tap counters of the window's outer axes
	taps := 1             // the most taps of one window, the work of each
	for k := range r {
		most := 0
		for _, n := range w.Count[k] {
			most = max(most, n)
		}
		taps = mulCounts(taps, max(most, 1))
	}
	for i := range idx {
		if c.Stop(taps) {
			return
		}
		off := 0
		empty := false
		for k, ok := range o {
			if w.Count[k][ok] == 0 {
				empty = true
			}
			off += w.First[k][ok] * w.InStride[k]
		}
		if empty {
			idx[i] = -1
		} else {
			idx[i] = base + int64(windowArgMax(keys, w, o, tap, off))
		}
		movement.NextIndex(o, w.OutShape)
	}
}

// argMaxPlane2D is argMaxPlane for one or two spatial axes, with the window
// loops written out.
func argMaxPlane2D(keys []int64, w *window.Windows, idx []int64, base int64, c *canceller) {
	rowStride, rowStep, colStep := w.InStride[0], w.TapStride[0], w.TapStride[1]
	i := 0
	for oh, h0 := range w.First[0] {
		nh := w.Count[0][oh]
		if c.Stop(nh * len(w.First[1])) {
			return
		}
		for ow, w0 := range w.First[1] {
			nw := w.Count[1][ow]
			if nh == 0 || nw == 0 {
				idx[i] = -1
				i++
				continue
			}
			off := h0*rowStride + w0
			at, best := off, keys[off]
			for row, end := off, off+nh*rowStep; row < end; row += rowStep {
				seg := keys[row : row+(nw-1)*colStep+1]
				for c := 0; c < len(seg); c += colStep {
					if v := seg[c]; v > best {
						best, at = v, row+c
					}
				}
			}
			idx[i] = base + int64(at)
			i++
		}
	}
}

// windowArgMax returns the position in keys of the first maximum of the
// window at output coordinates o, whose first real tap is at off. tap is
// zero on entry and on return.
func windowArgMax(keys []int64, w *window.Windows, o, tap []int, off int) int {
	last := len(o) - 1
	n, step := w.Count[last][o[last]], w.TapStride[last]
	at, best := off, keys[off]
	row := off
	for {
		end := row + n*step
		for q := row; q < end; q += step {
			if v := keys[q]; v > best {
				best, at = v, q
			}
		}
		k := last - 1
		for ; k >= 0; k-- {
			tap[k]++
			row += w.TapStride[k]
			if tap[k] < w.Count[k][o[k]] {
				break
			}
			row -= w.TapStride[k] * w.Count[k][o[k]]
			tap[k] = 0
		}
		if k < 0 {
			return at
		}
	}
}

// columnMajor rewrites the row-major indices of one plane (base plus a
// row-major offset in the plane) as base plus the column-major offset of the
// same element, as storage_order=1 asks. Over one spatial axis the two are
// the same; two axes, the common case, have their own loop.
func columnMajor(idx []int64, base int64, w *window.Windows) {
	r := len(w.InShape)
	if r == 2 {
		width, height := newDivisor(int64(w.InShape[1]), int64(w.InPlane)), int64(w.InShape[0])
		for i, g := range idx {
			if g >= 0 {
				pos := g - base
				row := width.div(pos)
				idx[i] = base + (pos-row*width.d)*height + row
			}
		}
		return
	}
	colStride := make([]int64, r) // the product of the input dims before k
	acc := int64(1)
	for k, d := range w.InShape {
		colStride[k] = acc
		acc *= int64(d)
	}
	rowStride := make([]divisor, r)
	for k, s := range w.InStride {
		rowStride[k] = newDivisor(int64(s), int64(w.InPlane))
	}
	for i, g := range idx {
		if g < 0 {
			continue
		}
		rest, col := g-base, int64(0)
		for k, s := range rowStride {
			c := s.div(rest)
			rest -= c * s.d
			col += c * colStride[k]
		}
		idx[i] = base + col
	}
}

// divisor divides by d, where a division per index would be the cost of
// storage_order=1: by a float64 multiplication when every dividend is below
// 2^50. Then (n + 0.5) * (1/d) is exact to within (n + 0.5) * 2^-52 / d,
// less than the distance 0.5/d from n/d + 0.5/d to the nearest integer, so
// its integer part is n/d.
type divisor struct {
	d   int64
	inv float64 // 1/d, or 0 to divide as integers
}

// newDivisor returns the divisor d > 0 for dividends below limit.
func newDivisor(d, limit int64) divisor {
	if limit >= 1<<50 {
		return divisor{d: d}
	}
	return divisor{d: d, inv: 1 / float64(d)}
}

func (v divisor) div(n int64) int64 {
	if v.inv == 0 {
		return n / v.d
	}
	return int64((float64(n) + 0.5) * v.inv)
}

// fillEmptyWindows writes the padding value (-inf for the float types, the
// type's minimum for the integers) where idx is -1, in steps with a look at
// the run's context between them.
func fillEmptyWindows(opt *Options, y *tensor.Tensor, idx []int64) error {
	var pad []byte
	ne := binary.NativeEndian
	switch y.DataType() {
	case tensor.Float:
		pad = ne.AppendUint32(nil, math.Float32bits(float32(math.Inf(-1))))
	case tensor.Double:
		pad = ne.AppendUint64(nil, math.Float64bits(math.Inf(-1)))
	case tensor.Float16:
		pad = ne.AppendUint16(nil, 0xFC00)
	case tensor.BFloat16:
		pad = ne.AppendUint16(nil, 0xFF80)
	case tensor.Int8:
		pad = []byte{0x80}
	case tensor.Uint8:
		pad = []byte{0}
	}
	b := y.Bytes()
	c := opt.canceller()
	for lo := 0; lo < len(idx); lo += pollWork {
		if c.Stop(pollWork) {
			return c.Err
		}
		for i := lo; i < min(lo+pollWork, len(idx)); i++ {
			if idx[i] < 0 {
				copy(b[i*len(pad):], pad)
			}
		}
	}
	return nil
}

// The window attributes, shared by every pooling and convolution operator
// (the geometry itself is ops/internal/window's).

// poolWindows builds the tap tables of a geometry after checking and
// charging their size: two ints per output index of every axis, which pads
// and strides can make long even for an empty tensor.
func (o *Options) poolWindows(op opRef, axes []window.Axis) (*window.Windows, error) {
	if err := o.chargeWindows(op, axes); err != nil {
		return nil, err
	}
	return window.NewWindows(axes), nil
}

// chargeWindows checks and charges the size of the tap tables of a
// geometry (poolWindows).
func (o *Options) chargeWindows(op opRef, axes []window.Axis) error {
	entries := 0
	for _, ax := range axes {
		entries = addCounts(entries, ax.Out)
	}
	return o.scratch(op, "the window tables", mulCounts(entries, 2), 8)
}

// readPoolAttrs reads a pooling node's geometry attributes; withDilations
// and withCeil say whether the node's version defines dilations and
// ceil_mode (an attribute the version does not define is an error).
func readPoolAttrs(n *Node, withDilations, withCeil bool) (window.Attrs, error) {
	var a window.Attrs
	ints := func(name string, allowed bool) ([]int, error) {
		v64, ok, err := n.Ints(name)
		if err != nil || !ok {
			return nil, err
		}
		if !allowed {
			return nil, n.op().errorf("attribute", "attribute %s is not defined in version %d", name, n.Version)
		}
		v, err := toInts(v64)
		if err != nil {
			return nil, n.op().errorf(name, "%v", err)
		}
		return v, nil
	}
	var err error
	if a.Kernel, err = ints("kernel_shape", true); err != nil {
		return a, err
	}
	if a.Kernel == nil {
		return a, n.op().errorf("kernel_shape", "attribute kernel_shape is required")
	}
	if a.Strides, err = ints("strides", true); err != nil {
		return a, err
	}
	if a.Pads, err = ints("pads", true); err != nil {
		return a, err
	}
	if a.Dilations, err = ints("dilations", withDilations); err != nil {
		return a, err
	}
	if a.AutoPad, err = n.Str("auto_pad", window.AutoPadNotSet); err != nil {
		return a, err
	}
	if n.Has("ceil_mode") && !withCeil {
		return a, n.op().errorf("attribute", "attribute ceil_mode is not defined in version %d", n.Version)
	}
	ceil, err := n.Int("ceil_mode", 0)
	if err != nil {
		return a, err
	}
	if ceil != 0 && ceil != 1 {
		return a, n.op().errorf("ceil_mode", "ceil_mode is %d, expected 0 or 1", ceil)
	}
	a.CeilMode = ceil == 1
	return a, nil
}

// checkPoolAttrs checks the window attributes against the number of
// spatial axes and fills in the defaults (window.Check), as op's error.
func checkPoolAttrs(op opRef, spatial int, a window.Attrs) (window.Attrs, error) {
	a, err := window.Check(spatial, a)
	return a, windowErr(op, err)
}

// maxPoolGeometry is window.Geometry with op's errors.
func poolGeometry(op opRef, in []int, a window.Attrs) ([]window.Axis, error) {
	axes, err := window.Geometry(in, a)
	return axes, windowErr(op, err)
}

// windowErr turns a rule the window engine found broken into op's error.
func windowErr(op opRef, err error) error {
	if e, ok := err.(*window.Error); ok {
		return op.errorf(e.Rule, "%s", e.Msg)
	}
	return err
}

// MaxPool without its Indices output (a node that declares only Y): for
// float and double images of one or two spatial axes the maxima are taken
// directly (window.Max2D), with MaxPool's rules (maxpool.go: the first NaN
// of a window, the first of tied maxima, -inf for a window without a real
// element), bit for bit what maxPool's Y holds; every other case is
// maxPool's, its Indices dropped. n, when not nil, is the node: it keeps
// the geometry of its last run on those planes (Node.pool), and the next
// run on an input of the same type and shape takes it as it is, o unread.

func maxPoolValues(opt *Options, op opRef, n *Node, x *tensor.Tensor, o MaxPoolOptions) (*tensor.Tensor, error) {
	fast := x != nil && (x.DataType() == tensor.Float || x.DataType() == tensor.Double) &&
		(x.Rank() == 3 || x.Rank() == 4) && opt.orDefault().Profile != ProfileSONNX
	if !fast {
		y, _, err := maxPool(opt, op, x, o)
		return y, err
	}
	if err := checkInput(op, "X", x); err != nil {
		return nil, err
	}
	if err := opt.positiveDims(op, "input X", x.Shape()); err != nil {
		return nil, err
	}
	opt = opt.orDefault()
	g := n.lastPool()
	if g == nil || !g.fits(x) {
		axes, _, err := maxPoolShape(opt, op, x.DataType(), x.Shape(), o)
		if err != nil {
			return nil, err
		}
		g = &maxPoolGeometry{dt: x.DataType(), xs: slices.Clone(x.Shape()), shape: maxPoolOutShape(x.Shape(), axes), axes: axes}
	}
	y, err := opt.newOverwritten(op, x.DataType(), g.shape)
	if err != nil {
		return nil, err
	}
	if y.Len() == 0 {
		return y, nil
	}
	if g.w == nil {
		w, err := opt.poolWindows(op, g.axes)
		if err != nil {
			return nil, err
		}
		g.w, g.plan = w, w.As2D()
		if planes := x.Shape()[0] * x.Shape()[1]; planes > 1 && planes*g.plan.OutShape[0] <= stackedRowsMax &&
			planes*(w.InPlane+w.OutPlane) < parallel.Work {
			g.stacked = g.plan.Stacked(planes)
		}
		if n != nil {
			n.pool.Store(g)
		}
	} else if err := opt.chargeWindows(op, g.axes); err != nil {
		// The tables are the node's, built at an earlier run; the run is
		// charged for them as if it built them.
		return nil, err
	}
	switch {
	case g.stacked != nil && x.DataType() == tensor.Float:
		err = maxPoolStacked(opt, x, y, g.stacked)
	case x.DataType() == tensor.Double:
		err = maxPoolPlanes[float64](opt, x, y, g.w, g.plan)
	default:
		err = maxPoolPlanes[float32](opt, x, y, g.w, g.plan)
	}
	if err != nil {
		return nil, op.stopped(err)
	}
	return y, nil
}

// maxPoolGeometry is what MaxPool without Indices derives from X's type and
// shape and the node's attributes before any work: the output shape and
// the window tables (w, and plan, its As2D form; stacked, for a small X,
// plan over all its planes as one). A node keeps the one of its last run
// (Node.pool), never modified once stored: the tables of a small image
// took longer to build than its maxima.
type maxPoolGeometry struct {
	dt      tensor.DataType
	xs      []int
	shape   []int // the output's
	axes    []window.Axis
	w, plan *window.Windows
	stacked *window.Windows
}

// stackedRowsMax bounds the output rows of a stacked geometry (its tables
// two ints a row): X small enough for one core, whose planes are few rows
// each ([1, 4, 16, 16] pooled 2x2: 32 rows of 8), where preparing each
// plane's loop and calling it cost more than its maxima.
const stackedRowsMax = 512

// maxPoolStacked is maxPoolPlanes for a small float32 X: one 2-D loop over
// the tall plane of all of X's planes (window.Windows.Stacked), the same
// maxima, taken in the same order.
func maxPoolStacked(opt *Options, x, y *tensor.Tensor, w *window.Windows) error {
	if err := parallel.Err(opt.orDefault().env.Ctx); err != nil {
		return err
	}
	xs, err := tensor.Data[float32](x)
	if err != nil {
		return err
	}
	ys, err := tensor.Data[float32](y)
	if err != nil {
		return err
	}
	window.Max2D(xs, ys, w, window.NewMaxScratch(w))
	return nil
}

// maxPoolIndexGeometry is what MaxPool with Indices derives from X's type
// and shape and the node's attributes before any work: the output shape,
// the window tables and their rank plan (nil where the general walk
// serves). A node keeps the one of its last run (Node.pool), never
// modified once stored.
type maxPoolIndexGeometry struct {
	dt    tensor.DataType
	xs    []int
	shape []int // the output's
	axes  []window.Axis
	w     *window.Windows
	rank  *rankPlan
	order int // storage_order
}

// lastPoolIndices is the MaxPool-with-Indices geometry the node kept, nil
// for none (or no node).
func (n *Node) lastPoolIndices() *maxPoolIndexGeometry {
	if n == nil {
		return nil
	}
	g, _ := n.pool.Load().(*maxPoolIndexGeometry)
	return g
}

// fits reports whether g is the geometry of an X like x.
func (g *maxPoolIndexGeometry) fits(x *tensor.Tensor) bool {
	return x != nil && g.dt == x.DataType() && tensor.SameShape(g.xs, x.Shape())
}

// lastPool is the pooling geometry the node kept, nil for none (or no node).
func (n *Node) lastPool() *maxPoolGeometry {
	if n == nil {
		return nil
	}
	g, _ := n.pool.Load().(*maxPoolGeometry)
	return g
}

// fits reports whether g is the geometry of an X like x.
func (g *maxPoolGeometry) fits(x *tensor.Tensor) bool {
	return x != nil && g.dt == x.DataType() && tensor.SameShape(g.xs, x.Shape())
}

func maxPoolPlanes[A float32 | float64](opt *Options, x, y *tensor.Tensor, w, plan *window.Windows) error {
	xs, err := tensor.Data[A](x)
	if err != nil {
		return err
	}
	ys, err := tensor.Data[A](y)
	if err != nil {
		return err
	}
	planes := x.Shape()[0] * x.Shape()[1]
	return parallelRange(opt, planes, planes*(w.InPlane+w.OutPlane), func(lo, hi int) error {
		c := opt.canceller()
		var s *window.MaxScratch
		if _, ok := any(xs).([]float32); ok {
			s = window.NewMaxScratch(plan) // at most 8 KiB, whatever the input
		}
		for p := lo; p < hi; p++ {
			if c.Stop(w.InPlane) {
				return c.Err
			}
			window.Max2D(xs[p*w.InPlane:(p+1)*w.InPlane], ys[p*w.OutPlane:(p+1)*w.OutPlane], plan, s)
		}
		return nil
	})
}
