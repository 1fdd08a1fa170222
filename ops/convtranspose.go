// ConvTranspose is the transposed convolution (the gradient of Conv with
// respect to its input): each element of X (N x C x D1 x ... x Dn) adds
// itself times its channel's filters W (C x M/group x k1 x ... x kn) onto
// the output window it names, and B (M values) is added to every output
// channel. Input position i, tap t lands on output coordinate
// i*stride - pad_begin + t*dilation; what falls outside the output is
// dropped.
//
// The output length along an axis: output_shape when given (then the
// pads are derived from it: total = stride*(in-1) + output_padding +
// dilated kernel - output, the larger half at the beginning, or with
// SAME_UPPER at the end, a negative total counting as 0 as onnxruntime
// does: the extra positions at the end get only the bias); otherwise
// in*stride under SAME_UPPER and SAME_LOWER (pads split the same way),
// stride*(in-1) + output_padding + dilated kernel - pads under NOTSET, and
// that with no pads under VALID.
//
// Versions: 1, 11 (no change to the computation), 22 (bfloat16). Types:
// float16, float, double, bfloat16 (22); float16 and bfloat16 computed in
// float32 and rounded once. The engine (ops/internal/conv) multiplies the
// transposed filters by tiles of X and scatter-adds the columns; its sums
// run in a different order than the reference's, within the bound
// reference.Agree states.
//
// The rules: Conv's ([type], [input-rank], [W-rank], [channels]: C is W's
// first dim, [group]: group divides C, [kernel_shape], the window
// attributes), then [output_padding] one value >= 0 per spatial axis,
// [output_shape] one value >= 0 per spatial axis (or per axis of X), [B],
// [pads] the output length is not negative, [size].

package ops

import (
	"slices"

	"github.com/onnxshape/onnxshape/ops/internal/conv"
	"github.com/onnxshape/onnxshape/ops/internal/convert"
	"github.com/onnxshape/onnxshape/ops/internal/window"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("ConvTranspose", []int{1, 11, 22}, [2]int{2, 3}, [2]int{1, 1}, convTransposeNode)
	declareAttrs("ConvTranspose",
		AttrSpec{Name: "auto_pad", Type: AttrString},
		AttrSpec{Name: "dilations", Type: AttrInts},
		AttrSpec{Name: "group", Type: AttrInt},
		AttrSpec{Name: "kernel_shape", Type: AttrInts},
		AttrSpec{Name: "output_padding", Type: AttrInts},
		AttrSpec{Name: "output_shape", Type: AttrInts},
		AttrSpec{Name: "pads", Type: AttrInts},
		AttrSpec{Name: "strides", Type: AttrInts})
}

func convTransposeNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	w, err := n.requiredInput(in, 1, "W")
	if err != nil {
		return nil, err
	}
	b, err := n.tensorInput(in, 2)
	if err != nil {
		return nil, err
	}
	// The geometry of the last run when X and W have its shapes; else
	// the attributes, read before the types are checked, as always.
	g := n.lastConv()
	var a convAttrs
	if g == nil || !g.fits(x, w, false) {
		g = nil
		if a, err = readConvTransposeAttrs(n); err != nil {
			return nil, err
		}
	}
	opt = opt.orDefault()
	dt := x.DataType()
	if !convFloatTypeOK(op.version, dt) {
		return nil, op.errorf("type", "X is %v, which version %d does not accept", dt, op.version)
	}
	if w.DataType() != dt {
		return nil, op.errorf("type", "W is %v, X %v: they must be the same type", w.DataType(), dt)
	}
	if g == nil {
		if g, err = n.newConvTransposeGeometry(op, x, w, a); err != nil {
			return nil, err
		}
	}
	shape, s := g.shape, g.s
	if err := convBias(op, b, dt, shape[1]); err != nil {
		return nil, err
	}
	if err := opt.checkSize(op, dt, shape); err != nil {
		return nil, err
	}
	size := 4
	if dt == tensor.Double {
		size = 8
	}
	if err := opt.refuseScratch(op, "the col2im tiles", conv.TransposeScratchBytes(s, size, opt.threads())); err != nil {
		return nil, err
	}
	y, err := opt.newOverwritten(op, dt, shape)
	if err != nil {
		return nil, err
	}
	if dt == tensor.Double {
		err = convTransposeFloat[float64](opt, op, s, x, w, b, y)
	} else {
		err = convTransposeFloat[float32](opt, op, s, x, w, b, y)
	}
	if err != nil {
		return nil, err
	}
	return values(y), nil
}

// readConvTransposeAttrs reads the node's attributes.
func readConvTransposeAttrs(n *Node) (convAttrs, error) {
	a, err := readConvAttrs(n, true)
	if err != nil {
		return a, err
	}
	if a.outputPadding, _, err = n.intsAttr("output_padding", "output_padding"); err != nil {
		return a, err
	}
	a.outputShape, _, err = n.intsAttr("output_shape", "output_shape")
	return a, err
}

// newConvTransposeGeometry checks the attributes a with the shapes of X
// and W and returns the output shape and the engine's Shape, which the
// node keeps (Node.conv, as Conv does): the next run with the same shapes
// takes it without reading an attribute again (a small ConvTranspose
// spent a fifth of its call and seven of its allocations on this).
func (n *Node) newConvTransposeGeometry(op opRef, x, w *tensor.Tensor, a convAttrs) (*convGeometry, error) {
	shape, axes, err := convTransposeGeometry(op, x.Shape(), w.Shape(), a)
	if err != nil {
		return nil, err
	}
	g := &convGeometry{xs: slices.Clone(x.Shape()), ws: slices.Clone(w.Shape()), shape: shape,
		s: convShape(shape[0], x.Shape()[1], shape[1], a.group, axes, true)}
	n.conv.Store(g)
	return g, nil
}

// convTransposeGeometry checks the shapes and attributes of a
// ConvTranspose and returns its output shape and axes (in: X's length,
// out: the output's, padBegin: where input position 0's first tap lands,
// negated).
func convTransposeGeometry(op opRef, xs, ws []int, a convAttrs) ([]int, []window.Axis, error) {
	a, err := convWeight(op, xs, ws, a, true)
	if err != nil {
		return nil, nil, err
	}
	spatial := len(xs) - 2
	if a.outputPadding == nil {
		a.outputPadding = make([]int, spatial)
	}
	// The reference evaluator defaults output_padding to 2*spatial zeros;
	// a model may carry that too.
	if len(a.outputPadding) == 2*spatial {
		a.outputPadding = a.outputPadding[:spatial]
	}
	if len(a.outputPadding) != spatial {
		return nil, nil, op.errorf("output_padding", "output_padding has %d values for %d spatial axes", len(a.outputPadding), spatial)
	}
	for i, p := range a.outputPadding {
		if p < 0 || p > window.MaxAttr {
			return nil, nil, op.errorf("output_padding", "output_padding[%d] is %d, outside [0, %d]", i, p, window.MaxAttr)
		}
	}
	os := a.outputShape
	if os != nil {
		if len(os) == spatial+2 {
			os = os[2:]
		}
		if len(os) != spatial {
			return nil, nil, op.errorf("output_shape", "output_shape has %d values for %d spatial axes", len(a.outputShape), spatial)
		}
		for i, d := range os {
			if d < 0 || d > window.MaxAttr {
				return nil, nil, op.errorf("output_shape", "output_shape[%d] is %d, outside [0, %d]", i, d, window.MaxAttr)
			}
		}
	}
	m := ws[1] * a.group
	shape := []int{xs[0], m}
	axes := make([]window.Axis, spatial)
	for i := range axes {
		ax := window.Axis{In: xs[i+2], Kernel: a.Kernel[i], Stride: a.Strides[i], Dilation: a.Dilations[i]}
		full := int64(ax.Stride)*int64(ax.In-1) + int64(a.outputPadding[i]) + window.DilatedKernel(ax.Kernel, ax.Dilation)
		var out int64
		split := func() {
			total := max(0, full-out)
			half := total / 2
			if a.AutoPad == window.AutoPadSameUpper {
				ax.PadBegin = int(half)
			} else {
				ax.PadBegin = int(total - half)
			}
		}
		switch {
		case os != nil:
			out = int64(os[i])
			split()
		case a.AutoPad == window.AutoPadSameUpper || a.AutoPad == window.AutoPadSameLower:
			out = int64(ax.In) * int64(ax.Stride)
			split()
		case a.AutoPad == window.AutoPadValid:
			out = full
		default:
			ax.PadBegin = a.Pads[i]
			out = full - int64(a.Pads[i]) - int64(a.Pads[i+spatial])
		}
		if out < 0 {
			return nil, nil, op.errorf("pads", "axis %d: the output length %d is negative (pads %v)", i+2, out, a.Pads)
		}
		if int64(int(out)) != out || out > window.MaxAttr {
			return nil, nil, op.errorf("size", "axis %d: output length %d is too large", i+2, out)
		}
		ax.Out = int(out)
		axes[i] = ax
		shape = append(shape, ax.Out)
	}
	return shape, axes, nil
}

func convTransposeFloat[A convert.Float](opt *Options, op opRef, s conv.Shape, x, w, b, y *tensor.Tensor) error {
	xv, err := convFloatsIn[A](opt, op, x, "X")
	if err != nil {
		return convErr(op, err)
	}
	wv, err := convFloatsIn[A](opt, op, w, "W")
	if err != nil {
		return convErr(op, err)
	}
	bv, err := convFloatsIn[A](opt, op, b, "B")
	if err != nil {
		return convErr(op, err)
	}
	return runFloatConv(opt, op, y, func(out []A) error {
		return convErr(op, conv.Transpose(opt.convConfig(op, "the col2im tiles"), s, xv, wv, bv, out))
	})
}
