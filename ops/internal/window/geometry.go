package window

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
	AutoPadNotSet    = "NOTSET"
	AutoPadSameUpper = "SAME_UPPER"
	AutoPadSameLower = "SAME_LOWER"
	AutoPadValid     = "VALID"
)

// MaxAttr bounds every kernel, stride, dilation and pad: far above any
// real model, and low enough that the geometry never overflows an int64.
const MaxAttr = 1<<31 - 1

// Attrs are the attributes of a pooling node, spatial axes only. Nil
// slices take the ONNX defaults (strides and dilations 1, pads 0); an empty
// autoPad means NOTSET.
type Attrs struct {
	Kernel, Strides, Pads, Dilations []int
	AutoPad                          string
	CeilMode                         bool
}

// Axis is the geometry of one spatial axis.
type Axis struct {
	In, Out                  int // input and output length
	Kernel, Stride, Dilation int
	PadBegin, PadEnd         int // after auto_pad
}

// DilatedKernel is the extent of a window on the padded input, d*(k-1)+1.
func DilatedKernel(k, d int) int64 { return int64(d)*int64(k-1) + 1 }

// Check checks the attributes against the number of spatial axes
// and fills in the defaults. The rule names are those of ONNX's attributes.
func Check(spatial int, a Attrs) (Attrs, error) {
	if spatial < 1 {
		return a, errorf("input-rank", "X needs at least one spatial axis after N and C, got rank %d", spatial+2)
	}
	if len(a.Kernel) != spatial {
		return a, errorf("kernel_shape", "kernel_shape has %d values for %d spatial axes", len(a.Kernel), spatial)
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
			return a, errorf(c.name, "%s has %d values, expected %d (X has %d spatial axes)", c.name, len(c.v), c.n, spatial)
		}
		for i, x := range c.v {
			if x < c.min || x > MaxAttr {
				return a, errorf(c.name, "%s[%d] is %d, outside [%d, %d]", c.name, i, x, c.min, MaxAttr)
			}
		}
	}
	switch a.AutoPad {
	case "":
		a.AutoPad = AutoPadNotSet
	case AutoPadNotSet, AutoPadValid, AutoPadSameUpper, AutoPadSameLower:
	default:
		return a, errorf("auto_pad", "auto_pad is %q, expected NOTSET, SAME_UPPER, SAME_LOWER or VALID", a.AutoPad)
	}
	if a.AutoPad != AutoPadNotSet {
		for _, p := range a.Pads {
			if p != 0 {
				return a, errorf("auto_pad", "pads %v cannot be used with auto_pad %s", a.Pads, a.AutoPad)
			}
		}
	}
	return a, nil
}

// Geometry returns the geometry of every spatial axis of an input whose
// spatial dims are in, for attributes that passed Check.
//
// The output length follows ONNX MaxPool 22 and its reference
// implementation: with explicit pads, floor (or ceil, with ceil_mode) of
// (in + pads - dilated kernel) / stride, plus 1; with ceil_mode, a last
// window that would start inside the end padding is dropped. SAME_UPPER and
// SAME_LOWER give ceil(in / stride) and pad by what that needs, the odd pixel
// at the end (UPPER) or the beginning (LOWER); VALID pads nothing.
func Geometry(in []int, a Attrs) ([]Axis, error) {
	spatial := len(in)
	axes := make([]Axis, spatial)
	for i := range axes {
		ax := Axis{In: in[i], Kernel: a.Kernel[i], Stride: a.Strides[i], Dilation: a.Dilations[i]}
		ek := DilatedKernel(ax.Kernel, ax.Dilation)
		n, s := int64(ax.In), int64(ax.Stride)
		var out int64
		switch a.AutoPad {
		case AutoPadSameUpper, AutoPadSameLower:
			out = (n + s - 1) / s
			total := max(0, (out-1)*s+ek-n)
			small := total / 2
			if a.AutoPad == AutoPadSameUpper {
				ax.PadBegin, ax.PadEnd = int(small), int(total-small)
			} else {
				ax.PadBegin, ax.PadEnd = int(total-small), int(small)
			}
		default:
			if a.AutoPad == AutoPadNotSet {
				ax.PadBegin, ax.PadEnd = a.Pads[i], a.Pads[i+spatial]
			}
			span := n + int64(ax.PadBegin) + int64(ax.PadEnd) - ek
			if span < 0 && a.AutoPad == AutoPadValid {
				// VALID: ceil((n - ek + 1) / s) windows fit, none here.
				out = 0
				break
			}
			if span < 0 {
				return nil, errorf("kernel_shape", "axis %d: the dilated kernel (%d) is longer than the padded input (%d)",
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
			return nil, errorf("size", "axis %d: output length %d does not fit in an int", i+2, out)
		}
		ax.Out = int(out)
		axes[i] = ax
	}
	return axes, nil
}

// Windows are the tables a pooling kernel walks, for one (N, C) plane:
// along spatial axis k, window o holds count[k][o] real taps, the first at
// input coordinate first[k][o] and the next ones dilation apart. A window
// lies partly or wholly in the padding where its count is below the kernel.
type Windows struct {
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

// NewWindows builds the tap tables of a geometry; callers that take the
// geometry from a model charge TableEntries first.
func NewWindows(axes []Axis) *Windows {
	r := len(axes)
	w := &Windows{
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

// As2D returns w itself when it has two spatial axes, and for one axis the
// same windows under a leading axis of length 1, so that one 2-D loop
// serves both.
func (w *Windows) As2D() *Windows {
	if len(w.OutShape) != 1 {
		return w
	}
	return &Windows{
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

// Stacked returns the 2-D windows w (As2D's form) over planes planes laid
// one after the other, as the windows of one plane of planes times the
// rows: output row oh of plane p is row p*OutShape[0]+oh, its window the
// rows of plane p's window, planes*InShape[0] rows down. No window
// crosses from one plane into the next, so a 2-D loop over the tall plane
// gives each output what the loop over its own plane would, with the
// per-plane preparation done once. Its tables hold 2*planes*OutShape[0]
// ints: callers bound planes.
func (w *Windows) Stacked(planes int) *Windows {
	inH, outH := w.InShape[0], w.OutShape[0]
	first, count := make([]int, 0, planes*outH), make([]int, 0, planes*outH)
	for p := range planes {
		for oh, r := range w.First[0] {
			first = append(first, p*inH+r)
			count = append(count, w.Count[0][oh])
		}
	}
	return &Windows{
		InShape:   []int{planes * inH, w.InShape[1]},
		OutShape:  []int{planes * outH, w.OutShape[1]},
		InStride:  w.InStride,
		Dilation:  w.Dilation,
		TapStride: w.TapStride,
		First:     [][]int{first, w.First[1]},
		Count:     [][]int{count, w.Count[1]},
		InPlane:   planes * w.InPlane,
		OutPlane:  planes * w.OutPlane,
		Empty:     w.Empty,
	}
}
