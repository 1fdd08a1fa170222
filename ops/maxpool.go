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
//     bit an element of X; float16 and bfloat16 are compared as float32.
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
//	[C1] X is float16, float, double, int8 or uint8
//	[C2] every value of dilations, kernel_shape and strides is > 0
//	[C3] pads has 4 entries, each >= 0
//	[C4] every window holds a real element: the dilated kernel d*(k-1)+1 is
//	     larger than each pad, and no window falls between two taps

package ops

import (
	"encoding/binary"
	"math"

	"github.com/onnxshape/onnxshape/tensor"
	"github.com/x448/float16"
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
func MaxPool(x *tensor.Tensor, o MaxPoolOptions) (y, indices *tensor.Tensor, err error) {
	return maxPool(nil, opRef{"MaxPool", 22}, x, o)
}

func maxPoolNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
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
	o := MaxPoolOptions{AutoPad: a.autoPad, CeilMode: a.ceilMode, Dilations: a.dilations,
		KernelShape: a.kernel, Pads: a.pads, StorageOrder: int(order), Strides: a.strides}
	y, indices, err := maxPool(opt, op, x, o)
	if err != nil {
		return nil, err
	}
	if n.NumOutputs >= 2 && n.Version >= 8 {
		return values(y, indices), nil
	}
	return values(y), nil
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
func maxPoolShape(opt *Options, op opRef, dt tensor.DataType, shape []int, o MaxPoolOptions) ([]poolAxis, error) {
	spatial := len(shape) - 2
	if opt.orDefault().Profile == ProfileSONNX {
		if err := maxPoolSONNX(op, dt, spatial, o); err != nil {
			return nil, err
		}
	}
	if !maxPoolTypeOK(op.version, dt) {
		return nil, op.errorf("type", "X is %v, which version %d does not accept", dt, op.version)
	}
	if o.StorageOrder != 0 && o.StorageOrder != 1 {
		return nil, op.errorf("storage_order", "storage_order is %d, expected 0 or 1", o.StorageOrder)
	}
	a, err := checkPoolAttrs(op, spatial, poolAttrs{kernel: o.KernelShape, strides: o.Strides,
		pads: o.Pads, dilations: o.Dilations, autoPad: o.AutoPad, ceilMode: o.CeilMode})
	if err != nil {
		return nil, err
	}
	axes, err := poolGeometry(op, shape[2:], a)
	if err != nil {
		return nil, err
	}
	if opt.orDefault().Profile == ProfileSONNX {
		w := newPoolWindows(axes)
		if w.empty {
			for k := range axes {
				for o, c := range w.count[k] {
					if c == 0 {
						return nil, op.errorf("C4", "axis %d: window %d holds no element of X, only padding", k+2, o)
					}
				}
			}
		}
	}
	return axes, nil
}

// maxPoolSONNX checks the profile's restrictions and constraints that come
// before the geometry.
func maxPoolSONNX(op opRef, dt tensor.DataType, spatial int, o MaxPoolOptions) error {
	if spatial != 2 {
		return op.errorf("R1", "X must have exactly 2 spatial axes (rank 4), got rank %d", spatial+2)
	}
	if o.AutoPad != "" && o.AutoPad != autoPadNotSet {
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
		return op.errorf("C1", "X is %v; the profile allows float16, float, double, int8 and uint8", dt)
	}
	for _, c := range []struct {
		name string
		v    []int
	}{{"dilations", o.Dilations}, {"kernel_shape", o.KernelShape}, {"strides", o.Strides}} {
		for i, x := range c.v {
			if x <= 0 {
				return op.errorf("C2", "%s[%d] is %d, must be > 0", c.name, i, x)
			}
		}
	}
	if len(o.Pads) != 4 {
		return op.errorf("C3", "pads must have 4 entries, got %d", len(o.Pads))
	}
	for i, p := range o.Pads {
		if p < 0 {
			return op.errorf("C3", "pads[%d] is %d, must be >= 0", i, p)
		}
	}
	if len(o.KernelShape) == 2 {
		for i, p := range o.Pads {
			k, d := o.KernelShape[i%2], 1
			if len(o.Dilations) == 2 {
				d = o.Dilations[i%2]
			}
			if ek := dilatedKernel(k, d); ek <= int64(p) {
				return op.errorf("C4", "pads[%d] is %d, not below the dilated kernel %d", i, p, ek)
			}
		}
	}
	return nil
}

// maxPoolOutShape is the shape of both outputs: N, C, then the output
// length of every spatial axis.
func maxPoolOutShape(shape []int, axes []poolAxis) []int {
	out := append([]int{}, shape[:2]...)
	for _, ax := range axes {
		out = append(out, ax.out)
	}
	return out
}

func maxPool(opt *Options, op opRef, x *tensor.Tensor, o MaxPoolOptions) (*tensor.Tensor, *tensor.Tensor, error) {
	opt = opt.orDefault()
	axes, err := maxPoolShape(opt, op, x.DataType(), x.Shape(), o)
	if err != nil {
		return nil, nil, err
	}
	outShape := maxPoolOutShape(x.Shape(), axes)
	if err := opt.checkSize(op, tensor.Int64, outShape); err != nil {
		return nil, nil, err
	}
	y, err := opt.newTensor(op, x.DataType(), outShape)
	if err != nil {
		return nil, nil, err
	}
	indices, err := opt.newTensor(op, tensor.Int64, outShape)
	if err != nil {
		return nil, nil, err
	}
	w := newPoolWindows(axes)
	idx, _ := tensor.Data[int64](indices)
	planes := x.Shape()[0] * x.Shape()[1]
	taps := 1 // the most real taps of one window: at most a plane
	for _, counts := range w.count {
		most := 1
		for _, c := range counts {
			most = max(most, c)
		}
		taps *= most
	}
	work := y.Len() * taps
	err = parallelRange(opt, planes, work, func(lo, hi int) error {
		var scratch []float32 // float16 and bfloat16 planes, as float32
		for p := lo; p < hi; p++ {
			if err := opt.cancelled(); err != nil {
				return err
			}
			base := p * w.inPlane
			pidx := idx[p*w.outPlane : (p+1)*w.outPlane]
			switch x.DataType() {
			case tensor.Float:
				v, _ := tensor.Data[float32](x)
				argMaxPlane(v[base:base+w.inPlane], w, pidx, int64(base))
			case tensor.Double:
				v, _ := tensor.Data[float64](x)
				argMaxPlane(v[base:base+w.inPlane], w, pidx, int64(base))
			case tensor.Int8:
				v, _ := tensor.Data[int8](x)
				argMaxPlane(v[base:base+w.inPlane], w, pidx, int64(base))
			case tensor.Uint8:
				v, _ := tensor.Data[uint8](x)
				argMaxPlane(v[base:base+w.inPlane], w, pidx, int64(base))
			case tensor.Float16:
				v, _ := tensor.Data[float16.Float16](x)
				scratch = widenToFloat32(scratch, v[base:base+w.inPlane])
				argMaxPlane(scratch, w, pidx, int64(base))
			case tensor.BFloat16:
				v, _ := tensor.Data[tensor.BF16](x)
				scratch = widenToFloat32(scratch, v[base:base+w.inPlane])
				argMaxPlane(scratch, w, pidx, int64(base))
			}
			gatherCopy(y, p*w.outPlane, x, pidx)
			if o.StorageOrder == 1 {
				columnMajor(pidx, int64(base), w)
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, op.wrap("cancelled", err, "run stopped")
	}
	if w.empty {
		fillEmptyWindows(y, idx)
	}
	return y, indices, nil
}

// widenToFloat32 returns the float16 or bfloat16 plane v converted to
// float32, in buf when it is large enough. The two loops are written out so
// that the conversion inlines.
func widenToFloat32[T float16.Float16 | tensor.BF16](buf []float32, v []T) []float32 {
	if cap(buf) < len(v) {
		buf = make([]float32, len(v))
	}
	buf = buf[:len(v)]
	switch v := any(v).(type) {
	case []float16.Float16:
		for i, e := range v {
			buf[i] = e.Float32()
		}
	case []tensor.BF16:
		for i, e := range v {
			buf[i] = e.Float32()
		}
	}
	return buf
}

// poolValue is the set of element types the MaxPool kernel compares.
type poolValue interface {
	float32 | float64 | int8 | uint8
}

// argMaxPlane writes, for every window of one plane x, base plus the index
// in x of the window's maximum (its first one, or its first NaN), or -1 for a
// window without a real element.
func argMaxPlane[T poolValue](x []T, w *poolWindows, idx []int64, base int64) {
	if len(w.outShape) <= 2 {
		argMaxPlane2D(x, w.as2D(), idx, base)
		return
	}
	r := len(w.outShape)
	o := make([]int, r)   // output coordinates
	tap := make([]int, r) // tap counters of the window's outer axes
	for i := range idx {
		off := 0
		empty := false
		for k, ok := range o {
			if w.count[k][ok] == 0 {
				empty = true
			}
			off += w.first[k][ok] * w.inStride[k]
		}
		if empty {
			idx[i] = -1
		} else {
			idx[i] = base + int64(windowArgMax(x, w, o, tap, off))
		}
		nextIndex(o, w.outShape)
	}
}

// argMaxPlane2D is argMaxPlane for one or two spatial axes (1-D pooling is
// 2-D pooling under an axis of length 1): the common case, with the window
// loops written out.
func argMaxPlane2D[T poolValue](x []T, w *poolWindows, idx []int64, base int64) {
	rowStride, rowStep, colStep := w.inStride[0], w.tapStride[0], w.tapStride[1]
	i := 0
	for oh, h0 := range w.first[0] {
		nh := w.count[0][oh]
		for ow, w0 := range w.first[1] {
			nw := w.count[1][ow]
			if nh == 0 || nw == 0 {
				idx[i] = -1
				i++
				continue
			}
			off := h0*rowStride + w0
			at, best := off, x[off]
			if best == best {
			rows:
				for row, end := off, off+nh*rowStep; row < end; row += rowStep {
					seg := x[row : row+(nw-1)*colStep+1]
					for c := 0; c < len(seg); c += colStep {
						v := seg[c]
						if v > best {
							best, at = v, row+c
						} else if v != v { // NaN: it wins, and nothing beats it
							at = row + c
							break rows
						}
					}
				}
			}
			idx[i] = base + int64(at)
			i++
		}
	}
}

// windowArgMax returns the index in x of the maximum of the window at output
// coordinates o, whose first real tap is at off. tap is zero on entry and on
// return.
func windowArgMax[T poolValue](x []T, w *poolWindows, o, tap []int, off int) int {
	last := len(o) - 1
	n, step := w.count[last][o[last]], w.tapStride[last]
	at, best := off, x[off]
	if best != best {
		return at
	}
	row := off
	for {
		end := row + n*step
		for q := row; q < end; q += step {
			v := x[q]
			if v > best {
				best, at = v, q
			} else if v != v { // NaN: it wins, and nothing beats it
				clear(tap)
				return q
			}
		}
		k := last - 1
		for ; k >= 0; k-- {
			tap[k]++
			row += w.tapStride[k]
			if tap[k] < w.count[k][o[k]] {
				break
			}
			row -= w.tapStride[k] * w.count[k][o[k]]
			tap[k] = 0
		}
		if k < 0 {
			return at
		}
	}
}

// columnMajor rewrites the row-major indices of one plane (base plus a
// row-major offset in the plane) as base plus the column-major offset of the
// same element, as storage_order=1 asks.
func columnMajor(idx []int64, base int64, w *poolWindows) {
	r := len(w.inShape)
	colStride := make([]int64, r) // the product of the input dims before k
	acc := int64(1)
	for k, d := range w.inShape {
		colStride[k] = acc
		acc *= int64(d)
	}
	for i, g := range idx {
		if g < 0 {
			continue
		}
		rest, col := g-base, int64(0)
		for k := range r {
			c := rest / int64(w.inStride[k])
			rest -= c * int64(w.inStride[k])
			col += c * colStride[k]
		}
		idx[i] = base + col
	}
}

// fillEmptyWindows writes the padding value (-inf for the float types, the
// type's minimum for the integers) where idx is -1.
func fillEmptyWindows(y *tensor.Tensor, idx []int64) {
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
	for i, g := range idx {
		if g < 0 {
			copy(b[i*len(pad):], pad)
		}
	}
}
