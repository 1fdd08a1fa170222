package ops

import "github.com/onnxshape/onnxshape/ops/internal/movement"

// The geometry of pooling windows, shared by MaxPool and MaxUnpool: the
// attributes kernel_shape, strides, pads, dilations, auto_pad and ceil_mode,
// their checks, the output dims they give, and the per-axis tables of the
// real (unpadded) taps of every window that the MaxPool kernel streams over.
//
// Every spatial axis is independent: a window is the product of one range of
// taps per axis, so the tables are per axis and a kernel only adds offsets.

// Values of auto_pad.
const (
	autoPadNotSet    = "NOTSET"
	autoPadSameUpper = "SAME_UPPER"
	autoPadSameLower = "SAME_LOWER"
	autoPadValid     = "VALID"
)

// maxPoolAttr bounds every kernel, stride, dilation and pad: far above any
// real model, and low enough that the geometry never overflows an int64.
const maxPoolAttr = 1<<31 - 1

// poolAttrs are the attributes of a pooling node, spatial axes only. Nil
// slices take the ONNX defaults (strides and dilations 1, pads 0); an empty
// autoPad means NOTSET.
type poolAttrs struct {
	Kernel, Strides, Pads, Dilations []int
	AutoPad                          string
	CeilMode                         bool
}

// poolAxis is the geometry of one spatial axis.
type poolAxis struct {
	In, Out                  int // input and output length
	Kernel, Stride, Dilation int
	PadBegin, PadEnd         int // after auto_pad
}

// dilatedKernel is the extent of a window on the padded input, d*(k-1)+1.
func dilatedKernel(k, d int) int64 { return int64(d)*int64(k-1) + 1 }

// checkPoolAttrs checks the attributes against the number of spatial axes
// and fills in the defaults. The rule names are those of ONNX's attributes.
func checkPoolAttrs(op opRef, spatial int, a poolAttrs) (poolAttrs, error) {
	if spatial < 1 {
		return a, op.errorf("input-rank", "X needs at least one spatial axis after N and C, got rank %d", spatial+2)
	}
	if len(a.Kernel) != spatial {
		return a, op.errorf("kernel_shape", "kernel_shape has %d values for %d spatial axes", len(a.Kernel), spatial)
	}
	ones := func() []int {
		v := make([]int, spatial)
		for i := range v {
			v[i] = 1
		}
		return v
	}
	if a.Strides == nil {
		a.Strides = ones()
	}
	if a.Dilations == nil {
		a.Dilations = ones()
	}
	if a.Pads == nil {
		a.Pads = make([]int, 2*spatial)
	}
	for _, c := range []struct {
		name string
		v    []int
		n    int
		min  int
	}{
		{"kernel_shape", a.Kernel, spatial, 1},
		{"strides", a.Strides, spatial, 1},
		{"dilations", a.Dilations, spatial, 1},
		{"pads", a.Pads, 2 * spatial, 0},
	} {
		if len(c.v) != c.n {
			return a, op.errorf(c.name, "%s has %d values, expected %d (X has %d spatial axes)", c.name, len(c.v), c.n, spatial)
		}
		for i, x := range c.v {
			if x < c.min || x > maxPoolAttr {
				return a, op.errorf(c.name, "%s[%d] is %d, outside [%d, %d]", c.name, i, x, c.min, maxPoolAttr)
			}
		}
	}
	switch a.AutoPad {
	case "":
		a.AutoPad = autoPadNotSet
	case autoPadNotSet, autoPadValid, autoPadSameUpper, autoPadSameLower:
	default:
		return a, op.errorf("auto_pad", "auto_pad is %q, expected NOTSET, SAME_UPPER, SAME_LOWER or VALID", a.AutoPad)
	}
	if a.AutoPad != autoPadNotSet {
		for _, p := range a.Pads {
			if p != 0 {
				return a, op.errorf("auto_pad", "pads %v cannot be used with auto_pad %s", a.Pads, a.AutoPad)
			}
		}
	}
	return a, nil
}

// poolGeometry returns the geometry of every spatial axis of an input whose
// spatial dims are in, for attributes that passed checkPoolAttrs.
//
// The output length follows ONNX MaxPool 22 and its reference
// implementation: with explicit pads, floor (or ceil, with ceil_mode) of
// (in + pads - dilated kernel) / stride, plus 1; with ceil_mode, a last
// window that would start inside the end padding is dropped. SAME_UPPER and
// SAME_LOWER give ceil(in / stride) and pad by what that needs, the odd pixel
// at the end (UPPER) or the beginning (LOWER); VALID pads nothing.
func poolGeometry(op opRef, in []int, a poolAttrs) ([]poolAxis, error) {
	spatial := len(in)
	axes := make([]poolAxis, spatial)
	for i := range axes {
		ax := poolAxis{In: in[i], Kernel: a.Kernel[i], Stride: a.Strides[i], Dilation: a.Dilations[i]}
		ek := dilatedKernel(ax.Kernel, ax.Dilation)
		n, s := int64(ax.In), int64(ax.Stride)
		var out int64
		switch a.AutoPad {
		case autoPadSameUpper, autoPadSameLower:
			out = (n + s - 1) / s
			total := max(0, (out-1)*s+ek-n)
			small := total / 2
			if a.AutoPad == autoPadSameUpper {
				ax.PadBegin, ax.PadEnd = int(small), int(total-small)
			} else {
				ax.PadBegin, ax.PadEnd = int(total-small), int(small)
			}
		default:
			if a.AutoPad == autoPadNotSet {
				ax.PadBegin, ax.PadEnd = a.Pads[i], a.Pads[i+spatial]
			}
			span := n + int64(ax.PadBegin) + int64(ax.PadEnd) - ek
			if span < 0 && a.AutoPad == autoPadValid {
				// VALID: ceil((n - ek + 1) / s) windows fit, none here.
				out = 0
				break
			}
			if span < 0 {
				return nil, op.errorf("kernel_shape", "axis %d: the dilated kernel (%d) is longer than the padded input (%d)",
					i+2, ek, n+int64(ax.PadBegin)+int64(ax.PadEnd))
			}
			out = span/s + 1
			if a.CeilMode {
				out = (span+s-1)/s + 1
				// Windows that would start in the end padding are dropped.
				if (out-1)*s >= n+int64(ax.PadBegin) {
					out = (n + int64(ax.PadBegin) + s - 1) / s
				}
			}
		}
		if int64(int(out)) != out {
			return nil, op.errorf("size", "axis %d: output length %d does not fit in an int", i+2, out)
		}
		ax.Out = int(out)
		axes[i] = ax
	}
	return axes, nil
}

// poolWindows are the tables a pooling kernel walks, for one (N, C) plane:
// along spatial axis k, window o holds count[k][o] real taps, the first at
// input coordinate first[k][o] and the next ones dilation apart. A window
// lies partly or wholly in the padding where its count is below the kernel.
type poolWindows struct {
	InShape   []int   // input spatial dims
	OutShape  []int   // output spatial dims
	InStride  []int   // row-major strides of the input plane
	Dilation  []int   // per axis, as in the attributes
	TapStride []int   // dilation * inStride: from one tap to the next
	First     [][]int // per axis, per output coordinate
	Count     [][]int
	InPlane   int  // elements of one input plane
	OutPlane  int  // elements of one output plane
	Empty     bool // some window holds no real element at all
}

// poolWindows builds the tap tables of a geometry after checking and
// charging their size: two ints per output index of every axis, which pads
// and strides can make long even for an empty tensor.
func (o *Options) poolWindows(op opRef, axes []poolAxis) (*poolWindows, error) {
	entries := 0
	for _, ax := range axes {
		entries = addCounts(entries, ax.Out)
	}
	if err := o.scratch(op, "the window tables", mulCounts(entries, 2), 8); err != nil {
		return nil, err
	}
	return newPoolWindows(axes), nil
}

// newPoolWindows builds the tap tables of a geometry; callers that take the
// geometry from a model go through Options.poolWindows.
func newPoolWindows(axes []poolAxis) *poolWindows {
	r := len(axes)
	w := &poolWindows{
		OutShape:  make([]int, r),
		Dilation:  make([]int, r),
		TapStride: make([]int, r),
		First:     make([][]int, r),
		Count:     make([][]int, r),
		InPlane:   1,
		OutPlane:  1,
	}
	w.InShape = make([]int, r)
	for k, ax := range axes {
		w.InShape[k] = ax.In
		w.OutShape[k] = ax.Out
		w.InPlane *= ax.In
		w.OutPlane *= ax.Out
	}
	w.InStride = movement.ContiguousStrides(w.InShape)
	for k, ax := range axes {
		w.Dilation[k] = ax.Dilation
		w.TapStride[k] = ax.Dilation * w.InStride[k]
		w.First[k] = make([]int, ax.Out)
		w.Count[k] = make([]int, ax.Out)
		d := int64(ax.Dilation)
		for o := range ax.Out {
			start := int64(o)*int64(ax.Stride) - int64(ax.PadBegin)
			j0 := int64(0)
			if start < 0 {
				j0 = (-start + d - 1) / d
			}
			j1 := int64(ax.Kernel - 1)
			if last := int64(ax.In) - 1 - start; last < 0 {
				j1 = -1
			} else {
				j1 = min(j1, last/d)
			}
			if j1 >= j0 {
				w.First[k][o] = int(start + j0*d)
				w.Count[k][o] = int(j1 - j0 + 1)
			} else {
				w.Empty = true
			}
		}
	}
	return w
}

// readPoolAttrs reads a pooling node's geometry attributes; withDilations
// and withCeil say whether the node's version defines dilations and
// ceil_mode (an attribute the version does not define is an error).
func readPoolAttrs(n *Node, withDilations, withCeil bool) (poolAttrs, error) {
	var a poolAttrs
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
	if a.AutoPad, err = n.Str("auto_pad", autoPadNotSet); err != nil {
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

// as2D returns w itself when it has two spatial axes, and for one axis the
// same windows under a leading axis of length 1, so that one 2-D loop
// serves both.
func (w *poolWindows) As2D() *poolWindows {
	if len(w.OutShape) != 1 {
		return w
	}
	return &poolWindows{
		InShape:   []int{1, w.InShape[0]},
		OutShape:  []int{1, w.OutShape[0]},
		InStride:  []int{w.InPlane, 1},
		Dilation:  []int{1, w.Dilation[0]},
		TapStride: []int{w.InPlane, w.TapStride[0]},
		First:     [][]int{{0}, w.First[0]},
		Count:     [][]int{{1}, w.Count[0]},
		InPlane:   w.InPlane,
		OutPlane:  w.OutPlane,
		Empty:     w.Empty,
	}
}
