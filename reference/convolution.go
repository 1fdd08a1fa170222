package reference

// What the convolution operators share (Conv, ConvTranspose, ConvInteger,
// QLinearConv, DeformConv): the attributes kernel_shape, strides, pads,
// dilations, auto_pad and group, the channels of X against W, and the
// window geometry (pooling's, ops/internal/window, without ceil_mode). Along spatial
// axis a, window position o covers the input coordinates
// o*strides[a] - pad_begin[a] + t*dilations[a], t in [0, kernel[a]) (the
// ONNX Conv operator; the reference evaluator's op_conv.py).

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// convAttrs are a convolution node's attributes, spatial axes only.
type convAttrs struct {
	poolAttrs
	group int
}

// readConvAttrs reads kernel_shape (optional), strides, pads, dilations,
// auto_pad (when the operator has it) and group (>= 1).
func readConvAttrs(n *ops.Node, withAutoPad bool) (convAttrs, error) {
	op := opOf(n)
	var a convAttrs
	var err error
	for _, f := range []struct {
		name string
		dst  *[]int
	}{{"kernel_shape", &a.kernel}, {"strides", &a.strides}, {"pads", &a.pads}, {"dilations", &a.dilations}} {
		if *f.dst, _, err = intsAttr(n, f.name, f.name); err != nil {
			return a, err
		}
	}
	if withAutoPad {
		if a.autoPad, err = n.Str("auto_pad", "NOTSET"); err != nil {
			return a, err
		}
	}
	if a.group, err = intAttr(n, "group", 1, "group"); err != nil {
		return a, err
	}
	if a.group < 1 {
		return a, op.errorf("group", "group is %d, expected at least 1", a.group)
	}
	return a, nil
}

// checkConvWeight checks X's and W's ranks and channels (W is M x C/group
// x kernel, or for a transposed convolution C x M/group x kernel), takes
// kernel_shape from W when absent, and checks the window attributes.
func checkConvWeight(op opRef, xs, ws []int, a convAttrs, transposed bool) (convAttrs, error) {
	if len(xs) < 3 {
		return a, op.errorf("input-rank", "X needs at least one spatial axis after N and C, got rank %d", len(xs))
	}
	if len(ws) != len(xs) {
		return a, op.errorf("W-rank", "W has rank %d, X rank %d", len(ws), len(xs))
	}
	if transposed {
		if ws[0] != xs[1] {
			return a, op.errorf("channels", "X has %d channels, W's first dim is %d", xs[1], ws[0])
		}
		if xs[1]%a.group != 0 {
			return a, op.errorf("group", "%d channels in %d groups", xs[1], a.group)
		}
	} else {
		if ws[1]*a.group != xs[1] {
			return a, op.errorf("channels", "X has %d channels, W takes %d per group of %d", xs[1], ws[1], a.group)
		}
		if ws[0]%a.group != 0 {
			return a, op.errorf("group", "%d output channels in %d groups", ws[0], a.group)
		}
	}
	if a.kernel == nil {
		a.kernel = append([]int(nil), ws[2:]...)
		for i, k := range a.kernel {
			if k < 1 {
				return a, op.errorf("kernel_shape", "W's dim %d is %d", i+2, k)
			}
		}
	} else if len(a.kernel) == len(ws)-2 {
		for i, k := range a.kernel {
			if k != ws[i+2] {
				return a, op.errorf("kernel_shape", "kernel_shape %v is not W's spatial shape %v", a.kernel, ws[2:])
			}
		}
	}
	p, err := checkPoolAttrs(op, len(xs)-2, a.poolAttrs)
	a.poolAttrs = p
	return a, err
}

// checkConvBias checks the optional bias: type dt, shape [m].
func checkConvBias(op opRef, b *tensor.Tensor, dt tensor.DataType, m int) error {
	if b == nil {
		return nil
	}
	if b.DataType() != dt {
		return op.errorf("type", "B is %v, expected %v", b.DataType(), dt)
	}
	if b.Rank() != 1 || b.Shape()[0] != m {
		return op.errorf("B", "B has shape %v, expected [%d]", b.Shape(), m)
	}
	return nil
}

// convFloatType reports whether version v of Conv, ConvTranspose or
// DeformConv takes dt.
func convFloatType(v int, dt tensor.DataType) bool { return poolTypes(v, dt) }

// convOutput returns [N, M, window positions...] and the axes.
func convOutput(op opRef, xs []int, m int, a convAttrs) ([]int, []poolAxis, error) {
	axes, err := poolGeometry(op, xs[2:], a.poolAttrs)
	if err != nil {
		return nil, nil, err
	}
	shape := []int{xs[0], m}
	for _, g := range axes {
		shape = append(shape, g.out)
	}
	return shape, axes, nil
}

// convSum is the sum, over the taps of one output position o (spatial
// coordinates) and the input channels [c0, c0+cg), of at(c, input
// coordinates) * weight(c - c0, tap coordinates): taps in the padding are
// skipped. Each term is added in order, channel by channel, tap by tap,
// the last axis fastest.
func convSum[A float64 | int64](axes []poolAxis, o []int, c0, cg int, at func(c int, in []int) A, weight func(c int, tap []int) A) A {
	var s A
	kernel := make([]int, len(axes))
	for i, g := range axes {
		kernel[i] = g.kernel
	}
	in := make([]int, len(axes))
	for c := range cg {
		forEachIndex(kernel, func(_ int, tap []int) {
			for i, g := range axes {
				in[i] = o[i]*g.stride - g.padBegin + tap[i]*g.dilation
				if in[i] < 0 || in[i] >= g.in {
					return
				}
			}
			s += at(c0+c, in) * weight(c, tap)
		})
	}
	return s
}
