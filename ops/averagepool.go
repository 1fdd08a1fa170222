// AveragePool slides a window over the spatial axes of X (N x C x D1 x ...
// x Dn) and writes the average of each window: the sum of its real elements
// divided by their number, or with count_include_pad=1 by the number of its
// taps inside the padded input (the padding counting as zeros). The window
// geometry (kernel_shape, strides, pads, auto_pad, dilations, ceil_mode) is
// MaxPool's and the sums are ops/internal/window's.
//
// Versions: 1 (kernel_shape, strides, pads, auto_pad), 7
// (count_include_pad), 10 (ceil_mode), 11 (no change we see), 19
// (dilations), 22 (bfloat16). Types: float16, float, double, bfloat16;
// float16 and bfloat16 are computed in float32. A window without a real
// element (pads as large as the kernel) gives NaN without
// count_include_pad, as numpy's average of nothing does.

package ops

import (
	"math"
	"slices"
	"unsafe"

	"github.com/onnxshape/onnxshape/ops/internal/movement"
	"github.com/onnxshape/onnxshape/ops/internal/window"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("AveragePool", []int{1, 7, 10, 11, 19, 22}, [2]int{1, 1}, [2]int{1, 1}, averagePoolNode)
	declareAttrs("AveragePool",
		AttrSpec{Name: "auto_pad", Type: AttrString},
		AttrSpec{Name: "kernel_shape", Type: AttrInts},
		AttrSpec{Name: "pads", Type: AttrInts},
		AttrSpec{Name: "strides", Type: AttrInts},
		AttrSpec{Name: "count_include_pad", Type: AttrInt, From: 7},
		AttrSpec{Name: "ceil_mode", Type: AttrInt, From: 10},
		AttrSpec{Name: "dilations", Type: AttrInts, From: 19})
}

// AveragePoolOptions are the attributes of AveragePool. The zero value of
// each field is the ONNX default; KernelShape is required. Slices hold one
// value per spatial axis (Pads two: all the beginnings, then all the ends).
type AveragePoolOptions struct {
	AutoPad         string // NOTSET (or ""), SAME_UPPER, SAME_LOWER or VALID
	CeilMode        bool   // ceil rather than floor for the output length
	CountIncludePad bool   // divide by the taps inside the padded input
	Dilations       []int  // nil: 1 on every axis
	KernelShape     []int
	Pads            []int // nil: 0 on every side
	Strides         []int // nil: 1 on every axis
}

// AveragePool returns the average pooling of x, N x C x D1 x ... x Dn (ONNX
// AveragePool, version 22).
func AveragePool(x *tensor.Tensor, o AveragePoolOptions, opts ...Option) (*tensor.Tensor, error) {
	op := opRef{"AveragePool", 22}
	opt, err := callOptions(op, opts)
	if err != nil {
		return nil, err
	}
	a := window.Attrs{Kernel: o.KernelShape, Strides: o.Strides, Pads: o.Pads, Dilations: o.Dilations,
		AutoPad: o.AutoPad, CeilMode: o.CeilMode}
	return averagePool(opt, op, nil, x, a, window.Pool{IncludePad: o.CountIncludePad})
}

func averagePoolNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	x, err := n.requiredInput(in, 0, "X")
	if err != nil {
		return nil, err
	}
	if g := n.lastAvgPool(); g != nil && g.fits(x) {
		// A run with the input of the last one reads no attribute:
		// averagePool takes the geometry the node kept.
		y, err := averagePool(opt, op, n, x, window.Attrs{}, g.wp)
		if err != nil {
			return nil, err
		}
		return opt.result(y), nil
	}
	a, err := readPoolAttrs(n, n.Version >= 19, n.Version >= 10)
	if err != nil {
		return nil, err
	}
	if n.Version < 7 && n.Has("count_include_pad") {
		return nil, op.errorf("attribute", "attribute count_include_pad is not defined in version %d", n.Version)
	}
	include, err := n.Int("count_include_pad", 0)
	if err != nil {
		return nil, err
	}
	if include != 0 && include != 1 {
		return nil, op.errorf("count_include_pad", "count_include_pad is %d, expected 0 or 1", include)
	}
	y, err := averagePool(opt, op, n, x, a, window.Pool{IncludePad: include == 1})
	if err != nil {
		return nil, err
	}
	return opt.result(y), nil
}

// poolFloatTypeOK reports whether a version of AveragePool, LpPool or the
// global pooling operators accepts dt: bfloat16 from version 22.
func poolFloatTypeOK(version int, dt tensor.DataType) bool {
	switch dt {
	case tensor.Float16, tensor.Float, tensor.Double:
		return true
	case tensor.BFloat16:
		return version >= 22
	}
	return false
}

// averagePool checks x and the geometry and pools; LpPool shares it. n,
// when not nil, is the node: it keeps the geometry of its last run
// (Node.pool), and the next run on an input of the same type and shape
// takes it as it is, a unread.
func averagePool(opt *Options, op opRef, n *Node, x *tensor.Tensor, a window.Attrs, wp window.Pool) (*tensor.Tensor, error) {
	if g := n.lastAvgPool(); g != nil && g.fits(x) {
		y, err := windowPoolRun(opt, op, x, g)
		return y, err
	}
	if !poolFloatTypeOK(op.version, x.DataType()) {
		return nil, op.errorf("type", "X is %v, which version %d does not accept", x.DataType(), op.version)
	}
	shape := x.Shape()
	if len(shape) < 3 {
		return nil, op.errorf("input-rank", "X needs at least one spatial axis after N and C, got rank %d", len(shape))
	}
	a, err := checkPoolAttrs(op, len(shape)-2, a)
	if err != nil {
		return nil, err
	}
	axes, err := poolGeometry(op, shape[2:], a)
	if err != nil {
		return nil, err
	}
	g := newAvgPoolGeometry(x, axes, wp)
	y, err := windowPoolRun(opt, op, x, g)
	if err == nil && n != nil {
		n.pool.Store(g)
	}
	return y, err
}

// avgPoolGeometry is what AveragePool derives from X's type and shape and
// the node's attributes before any work: the output shape, the window
// tables (w, and plan, its As2D form for one or two spatial axes, nil
// otherwise) and the divisors. A node keeps the one of its last run
// (Node.pool), never modified once stored: the tables of a small image
// took longer to build than its averages.
type avgPoolGeometry struct {
	dt       tensor.DataType
	xs       []int
	shape    []int // the output's
	wp       window.Pool
	w, plan  *window.Windows
	divisors [][]float64
}

func newAvgPoolGeometry(x *tensor.Tensor, axes []window.Axis, wp window.Pool) *avgPoolGeometry {
	shape := append([]int{}, x.Shape()[:2]...)
	for _, ax := range axes {
		shape = append(shape, ax.Out)
	}
	w := window.NewWindows(axes)
	g := &avgPoolGeometry{dt: x.DataType(), xs: slices.Clone(x.Shape()), shape: shape, wp: wp, w: w,
		divisors: window.Divisors(axes, w, wp.IncludePad)}
	if len(w.OutShape) <= 2 {
		g.plan = w.As2D()
	}
	return g
}

// lastAvgPool is the pooling geometry the node kept, nil for none (or no node).
func (n *Node) lastAvgPool() *avgPoolGeometry {
	if n == nil {
		return nil
	}
	g, _ := n.pool.Load().(*avgPoolGeometry)
	return g
}

// fits reports whether g is the geometry of an X like x.
func (g *avgPoolGeometry) fits(x *tensor.Tensor) bool {
	return x != nil && g.dt == x.DataType() && tensor.SameShape(g.xs, x.Shape())
}

// windowPoolRun pools x (N x C x spatial) over the windows of g into a
// new tensor.
func windowPoolRun(opt *Options, op opRef, x *tensor.Tensor, g *avgPoolGeometry) (*tensor.Tensor, error) {
	opt = opt.orDefault()
	y, err := opt.newOverwritten(op, x.DataType(), g.shape)
	if err != nil {
		return nil, err
	}
	if x.DataType() == tensor.Double {
		err = windowPoolAs[float64](opt, op, x, y, g)
	} else {
		err = windowPoolAs[float32](opt, op, x, y, g)
	}
	if err != nil {
		return nil, err
	}
	return y, nil
}

func windowPoolAs[A float32 | float64](opt *Options, op opRef, x, y *tensor.Tensor, g *avgPoolGeometry) error {
	w, plan, divisors, wp := g.w, g.plan, g.divisors, g.wp
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
	if plan != nil {
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
				rowSums, terms = window.Pool2D(in, out, plan, divisors, wp, rowSums, terms)
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
				s := window.Sum(in, w, o, 0, off, wp)
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
