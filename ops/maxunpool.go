// MaxUnpool is the partial inverse of MaxPool: it puts every element of X at
// the flat index that I (typically MaxPool's Indices) gives for it, in an
// output that is zero everywhere else.
//
// Versions: 9 (float16, float, double), 11 (strides documented as default
// 1; no other change), 22 (bfloat16). X is N x C x D1 x ... x Dn, any n >= 1.
//
// The output shape is, per spatial axis, (d-1)*stride + kernel - pad_begin -
// pad_end (N and C kept): the shape of the MaxPool input the indices were
// taken from. The indices are flat, row-major, over that whole default
// shape, N and C included. With the optional output_shape input, the result
// is the default one, zero-padded at the end of every axis up to
// output_shape: the ONNX node test test_maxunpool_export_with_output_shape
// and the reference implementation say so (onnxruntime instead reads the
// indices as flat over output_shape; see docs/divergences.md). The spec's
// "if output_shape is specified, pads values are ignored" is not followed
// literally: as in the reference, pads still shape the default output,
// which output_shape then extends.
//
// Rules (ONNX states the first ones; the rest is what this implementation
// refuses rather than write out of bounds):
//
//	[type]         X is a float type of the version; I and output_shape are int64
//	[kernel_shape] one value per spatial axis, each > 0 (likewise strides > 0, pads >= 0)
//	[I]            I has the shape of X
//	[output-shape] the default output dims are >= 0
//	[output_shape] output_shape has one value per axis of X, none below the default dim
//	[index]        every index is in [0, size of the default output)
//
// Duplicate indices: the elements of X are written in row-major order, so of
// two elements with one index the later wins (as in the reference).

package ops

import (
	"sync/atomic"

	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/ops/internal/window"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("MaxUnpool", []int{9, 11, 22}, [2]int{2, 3}, [2]int{1, 1}, maxUnpoolNode)
}

// MaxUnpoolOptions are the attributes of MaxUnpool, and its optional
// output_shape input. KernelShape is required; nil Strides and Pads take the
// ONNX defaults (1 and 0).
type MaxUnpoolOptions struct {
	KernelShape []int
	Pads        []int // all the beginnings, then all the ends
	Strides     []int
	// OutputShape, when set, is the shape of the output: the default
	// output, zero-padded at the end of each axis.
	OutputShape []int
}

// MaxUnpool scatters x to the flat indices given by indices (ONNX
// MaxUnpool, version 22).
func MaxUnpool(x, indices *tensor.Tensor, o MaxUnpoolOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"MaxUnpool", 22}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	return maxUnpool(opt, op, x, indices, o)
}

func maxUnpoolNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	indices, err := n.requiredInput(in, 1, "I")
	if err != nil {
		return nil, err
	}
	a, err := readPoolAttrs(n, false, false)
	if err != nil {
		return nil, err
	}
	if n.Has("auto_pad") {
		return nil, op.errorf("attribute", "MaxUnpool has no attribute auto_pad")
	}
	o := MaxUnpoolOptions{KernelShape: a.Kernel, Pads: a.Pads, Strides: a.Strides}
	s, err := n.tensorInput(in, 2)
	if err != nil {
		return nil, err
	}
	if s != nil {
		if s.DataType() != tensor.Int64 || s.Rank() != 1 {
			return nil, op.errorf("type", "output_shape must be a 1-D int64 tensor, got %v of shape %v", s.DataType(), s.Shape())
		}
		v, _ := int64sOf(s)
		if o.OutputShape, err = toInts(v); err != nil {
			return nil, op.errorf("output_shape", "%v", err)
		}
	}
	y, err := maxUnpool(opt, op, x, indices, o)
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

// maxUnpoolTypeOK reports whether a version of MaxUnpool accepts X of type dt.
func maxUnpoolTypeOK(version int, dt tensor.DataType) bool {
	switch dt {
	case tensor.Float16, tensor.Float, tensor.Double:
		return true
	case tensor.BFloat16:
		return version >= 22
	}
	return false
}

// maxUnpoolShape checks the constraints that do not read I's values and
// returns the default output shape (the one the indices address) and the
// output shape.
func maxUnpoolShape(op opRef, dt tensor.DataType, xShape, iShape []int, o MaxUnpoolOptions) (def, out []int, err error) {
	if !maxUnpoolTypeOK(op.version, dt) {
		return nil, nil, op.errorf("type", "X is %v, which version %d does not accept", dt, op.version)
	}
	spatial := len(xShape) - 2
	a, err := checkPoolAttrs(op, spatial, window.Attrs{Kernel: o.KernelShape, Strides: o.Strides, Pads: o.Pads})
	if err != nil {
		return nil, nil, err
	}
	if !tensor.SameShape(xShape, iShape) {
		return nil, nil, op.errorf("I", "I has shape %v, X has shape %v: they must be the same", iShape, xShape)
	}
	def = append([]int{}, xShape...)
	for k := range spatial {
		d := (int64(xShape[k+2])-1)*int64(a.Strides[k]) + int64(a.Kernel[k]) - int64(a.Pads[k]) - int64(a.Pads[k+spatial])
		if d < 0 || int64(int(d)) != d {
			return nil, nil, op.errorf("output-shape", "axis %d: the output length (%d-1)*%d + %d - %d - %d = %d is impossible",
				k+2, xShape[k+2], a.Strides[k], a.Kernel[k], a.Pads[k], a.Pads[k+spatial], d)
		}
		def[k+2] = int(d)
	}
	if o.OutputShape == nil {
		return def, def, nil
	}
	if len(o.OutputShape) != len(xShape) {
		return nil, nil, op.errorf("output_shape", "output_shape has %d values, X has rank %d", len(o.OutputShape), len(xShape))
	}
	for k, d := range o.OutputShape {
		if d < def[k] {
			return nil, nil, op.errorf("output_shape", "output_shape %v is smaller than the default output shape %v on axis %d", o.OutputShape, def, k)
		}
	}
	return def, append([]int{}, o.OutputShape...), nil
}

func maxUnpool(opt *Options, op opRef, x, indices *tensor.Tensor, o MaxUnpoolOptions) (*tensor.Tensor, error) {
	if err := checkInput(op, "X", x); err != nil {
		return nil, err
	}
	if err := checkInput(op, "I", indices); err != nil {
		return nil, err
	}
	opt = opt.orDefault()
	if indices.DataType() != tensor.Int64 {
		return nil, op.errorf("type", "I must be int64, got %v", indices.DataType())
	}
	def, outShape, err := maxUnpoolShape(op, x.DataType(), x.Shape(), indices.Shape(), o)
	if err != nil {
		return nil, err
	}
	// Every element is written: zero, or an element of X.
	y, err := opt.newOverwritten(op, x.DataType(), outShape)
	if err != nil {
		return nil, err
	}
	idx, _ := tensor.Data[int64](indices)
	if tensor.SameShape(def, outShape) {
		done, err := scatterPlanes(opt, y, idx, x)
		if err != nil {
			return nil, op.stopped(err)
		}
		if done {
			return y, nil
		}
	}
	if err := opt.cancelled(); err != nil {
		return nil, op.stopped(err)
	}
	clear(y.Bytes())
	// Where each element goes: its index in the default shape, moved to
	// the same coordinates in the output when output_shape is larger.
	size, _ := tensor.NumElements(def)
	for i, g := range idx {
		if g < 0 || g >= int64(size) {
			return nil, op.errorf("index", "I[%d] is %d, outside [0, %d) (the default output shape %v)", i, g, size, def)
		}
	}
	if tensor.SameShape(def, outShape) {
		// The indices address the output itself: no translated copy.
		if err := scatterInSteps(opt, y, idx, x); err != nil {
			return nil, op.stopped(err)
		}
		return y, nil
	}
	if err := opt.scratch(op, "the translated indices", len(idx), 8); err != nil {
		return nil, err
	}
	at := make([]int64, len(idx))
	defStrides, outStrides := movement.ContiguousStrides(def), movement.ContiguousStrides(outShape)
	for i, g := range idx {
		var off int64
		for k, s := range defStrides {
			c := g / int64(s)
			g -= c * int64(s)
			off += c * int64(outStrides[k])
		}
		at[i] = off
	}
	if err := scatterInSteps(opt, y, at, x); err != nil {
		return nil, op.stopped(err)
	}
	return y, nil
}

// scatterInSteps is scatterCopy(y, at, x, 0) in steps of pollWork
// elements, in order, with a look at the run's context between steps.
func scatterInSteps(opt *Options, y *tensor.Tensor, at []int64, x *tensor.Tensor) error {
	c := opt.orDefault().canceller()
	for lo := 0; lo < len(at); lo += pollWork {
		if c.Stop(pollWork) {
			return c.Err
		}
		hi := min(lo+pollWork, len(at))
		movement.ScatterCopy(y, at[lo:hi], x, lo)
	}
	return nil
}

// scatterPlanes is MaxUnpool's output when the indices address it as it is
// and each (N, C) plane of X goes to the same plane of the output, as
// MaxPool's indices do: plane by plane, across the cores, each output plane
// cleared and then scattered to while it is in cache, written once. It
// reports false, with the output partly written, when some index lies
// outside its own plane (out of range, or in another plane, where another
// core could be writing): then the caller does the whole output in order.
// A cancelled run returns the context's error.
func scatterPlanes(opt *Options, y *tensor.Tensor, idx []int64, x *tensor.Tensor) (bool, error) {
	shape := x.Shape()
	planes := shape[0] * shape[1]
	if planes == 0 || y.Len() == 0 {
		return false, nil
	}
	inPlane, outPlane := len(idx)/planes, y.Len()/planes
	var stray atomic.Bool
	err := parallelRange(opt, planes, y.Len()+2*len(idx), func(lo, hi int) error {
		c := opt.orDefault().canceller()
		for p := lo; p < hi && !stray.Load(); p++ {
			if c.Stop(inPlane + outPlane) {
				return c.Err
			}
			at := idx[p*inPlane : (p+1)*inPlane]
			var ok bool
			dst, src := y.Bytes(), x.Bytes()
			switch y.DataType().Size() {
			case 2:
				ok = scatterPlane(asElems[uint16](dst), p*outPlane, outPlane, at, asElems[uint16](src)[p*inPlane:])
			case 4:
				ok = scatterPlane(asElems[uint32](dst), p*outPlane, outPlane, at, asElems[uint32](src)[p*inPlane:])
			case 8:
				ok = scatterPlane(asElems[uint64](dst), p*outPlane, outPlane, at, asElems[uint64](src)[p*inPlane:])
			}
			if !ok {
				stray.Store(true)
			}
		}
		return nil
	})
	return err == nil && !stray.Load(), err
}

// scatterPlane clears dst[first:first+n] and sets dst[at[i]] = src[i] for
// every i, in increasing i; it stops and reports false at the first index
// outside [first, first+n).
func scatterPlane[E uint16 | uint32 | uint64](dst []E, first, n int, at []int64, src []E) bool {
	plane := dst[first : first+n]
	clear(plane)
	src = src[:len(at)]
	for i, g := range at {
		g -= int64(first)
		if uint64(g) >= uint64(len(plane)) {
			return false
		}
		plane[g] = src[i]
	}
	return true
}
