package reference

// The attributes of the pooling operators (MaxPool, MaxUnpool):
// kernel_shape, strides, pads, dilations, auto_pad and ceil_mode, their
// checks, and the output length they give each spatial axis, as ONNX
// MaxPool 22 and its reference implementation (op_pool_common.py) define
// them. Rule names are the attributes' names.

import (
	"github.com/onnxshape/onnxshape/ops"
)

// maxPoolAttr bounds every kernel, stride, dilation and pad, as the fast
// kernel bounds them: far above any model, low enough never to overflow.
const maxPoolAttr = 1<<31 - 1

// poolAttrs are the attributes of a pooling node, spatial axes only; nil
// slices take the defaults once checked.
type poolAttrs struct {
	kernel, strides, pads, dilations []int
	autoPad                          string
	ceilMode                         bool
}

// poolAxis is the geometry of one spatial axis.
type poolAxis struct {
	in, out                  int
	kernel, stride, dilation int
	padBegin, padEnd         int // after auto_pad
}

// readPoolAttrs reads a pooling node's attributes; withDilations and
// withCeil say whether its version defines dilations and ceil_mode.
func readPoolAttrs(n *ops.Node, withDilations, withCeil bool) (poolAttrs, error) {
	op := opOf(n)
	var a poolAttrs
	ints := func(name string, allowed bool) ([]int, error) {
		v64, ok, err := n.Ints(name)
		if err != nil || !ok {
			return nil, err
		}
		if !allowed {
			return nil, op.errorf("attribute", "attribute %s is not defined in version %d", name, op.version)
		}
		v, err := toInts(v64)
		if err != nil {
			return nil, op.errorf(name, "%v", err)
		}
		return v, nil
	}
	var err error
	if a.kernel, err = ints("kernel_shape", true); err != nil {
		return a, err
	}
	if a.kernel == nil {
		return a, op.errorf("kernel_shape", "attribute kernel_shape is required")
	}
	if a.strides, err = ints("strides", true); err != nil {
		return a, err
	}
	if a.pads, err = ints("pads", true); err != nil {
		return a, err
	}
	if a.dilations, err = ints("dilations", withDilations); err != nil {
		return a, err
	}
	if a.autoPad, err = n.Str("auto_pad", "NOTSET"); err != nil {
		return a, err
	}
	if n.Has("ceil_mode") && !withCeil {
		return a, op.errorf("attribute", "attribute ceil_mode is not defined in version %d", op.version)
	}
	ceil, err := n.Int("ceil_mode", 0)
	if err != nil {
		return a, err
	}
	if ceil != 0 && ceil != 1 {
		return a, op.errorf("ceil_mode", "ceil_mode is %d, expected 0 or 1", ceil)
	}
	a.ceilMode = ceil == 1
	return a, nil
}

// checkPoolAttrs checks the attributes against the number of spatial axes
// and fills in the defaults (strides and dilations 1, pads 0, NOTSET).
func checkPoolAttrs(op opRef, spatial int, a poolAttrs) (poolAttrs, error) {
	if spatial < 1 {
		return a, op.errorf("input-rank", "X needs at least one spatial axis after N and C, got rank %d", spatial+2)
	}
	if len(a.kernel) != spatial {
		return a, op.errorf("kernel_shape", "kernel_shape has %d values for %d spatial axes", len(a.kernel), spatial)
	}
	ones := func() []int {
		v := make([]int, spatial)
		for i := range v {
			v[i] = 1
		}
		return v
	}
	if a.strides == nil {
		a.strides = ones()
	}
	if a.dilations == nil {
		a.dilations = ones()
	}
	if a.pads == nil {
		a.pads = make([]int, 2*spatial)
	}
	for _, c := range []struct {
		name string
		v    []int
		n    int
		min  int
	}{
		{"kernel_shape", a.kernel, spatial, 1},
		{"strides", a.strides, spatial, 1},
		{"dilations", a.dilations, spatial, 1},
		{"pads", a.pads, 2 * spatial, 0},
	} {
		if len(c.v) != c.n {
			return a, op.errorf(c.name, "%s has %d values, expected %d", c.name, len(c.v), c.n)
		}
		for i, x := range c.v {
			if x < c.min || x > maxPoolAttr {
				return a, op.errorf(c.name, "%s[%d] is %d, outside [%d, %d]", c.name, i, x, c.min, maxPoolAttr)
			}
		}
	}
	switch a.autoPad {
	case "":
		a.autoPad = "NOTSET"
	case "NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER":
	default:
		return a, op.errorf("auto_pad", "auto_pad is %q, expected NOTSET, SAME_UPPER, SAME_LOWER or VALID", a.autoPad)
	}
	if a.autoPad != "NOTSET" {
		for _, p := range a.pads {
			if p != 0 {
				return a, op.errorf("auto_pad", "pads %v cannot be used with auto_pad %s", a.pads, a.autoPad)
			}
		}
	}
	return a, nil
}

// dilatedKernel is the extent of a window, d*(k-1)+1.
func dilatedKernel(k, d int) int64 { return int64(d)*int64(k-1) + 1 }

// poolGeometry returns the geometry of each spatial axis: with explicit
// pads, output length floor (ceil with ceil_mode) of (in + pads - dilated
// kernel) / stride, plus 1, a last window starting in the end padding
// dropped; SAME_UPPER and SAME_LOWER give ceil(in / stride) and pad by what
// that needs, the odd element at the end (UPPER) or the beginning (LOWER);
// VALID pads nothing.
func poolGeometry(op opRef, in []int, a poolAttrs) ([]poolAxis, error) {
	spatial := len(in)
	axes := make([]poolAxis, spatial)
	for i := range axes {
		ax := poolAxis{in: in[i], kernel: a.kernel[i], stride: a.strides[i], dilation: a.dilations[i]}
		ek := dilatedKernel(ax.kernel, ax.dilation)
		n, s := int64(ax.in), int64(ax.stride)
		var out int64
		switch a.autoPad {
		case "SAME_UPPER", "SAME_LOWER":
			out = (n + s - 1) / s
			total := max(0, (out-1)*s+ek-n)
			small := total / 2
			if a.autoPad == "SAME_UPPER" {
				ax.padBegin, ax.padEnd = int(small), int(total-small)
			} else {
				ax.padBegin, ax.padEnd = int(total-small), int(small)
			}
		default:
			if a.autoPad == "NOTSET" {
				ax.padBegin, ax.padEnd = a.pads[i], a.pads[i+spatial]
			}
			span := n + int64(ax.padBegin) + int64(ax.padEnd) - ek
			if span < 0 && a.autoPad == "VALID" {
				// VALID: ceil((n - ek + 1) / s) windows fit, none here.
				out = 0
				break
			}
			if span < 0 {
				return nil, op.errorf("kernel_shape", "axis %d: the dilated kernel (%d) is longer than the padded input (%d)",
					i+2, ek, n+int64(ax.padBegin)+int64(ax.padEnd))
			}
			out = span/s + 1
			if a.ceilMode {
				out = (span+s-1)/s + 1
				if (out-1)*s >= n+int64(ax.padBegin) {
					out = (n + int64(ax.padBegin) + s - 1) / s
				}
			}
		}
		if int64(int(out)) != out {
			return nil, op.errorf("size", "axis %d: output length %d does not fit in an int", i+2, out)
		}
		ax.out = int(out)
		axes[i] = ax
	}
	return axes, nil
}
