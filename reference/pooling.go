package reference

// What AveragePool and LpPool share: the geometry of the windows, as the
// ONNX operator documents and its reference evaluator computes it, and the
// sum over a window. Along each spatial axis i, output o's window has the
// taps o*strides[i] - pad_begin[i] + t*dilations[i], t in [0, kernel[i]);
// a tap in [0, in) is a real element, one in [-pad_begin, in + pad_end) is
// inside the padded input. The output length is
//
//	NOTSET: floor((in + pads - ((kernel-1)*dilation+1)) / stride + 1), or
//	        ceil with ceil_mode, less one if the last window would start
//	        in the end padding;
//	SAME_UPPER, SAME_LOWER: ceil(in / stride), padded by what that needs,
//	        the odd one at the end (UPPER) or the beginning (LOWER);
//	VALID:  floor((in - ((kernel-1)*dilation+1)) / stride + 1), no padding.
//
// Types: float16, float, double, and bfloat16 from version 22; float16 and
// bfloat16 computed in float32.

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// poolAxisGeometry is one spatial axis of a pooling.
type poolAxisGeometry struct {
	in, out, kernel, stride, dilation, padBegin, padEnd int
}

// poolGeometryOf reads the window attributes of node n for input shape
// (N, C, spatial...); dilations and ceil_mode are read where the version
// defines them.
func poolGeometryOf(n *ops.Node, shape []int, withDilations, withCeil bool) ([]poolAxisGeometry, error) {
	if len(shape) < 3 {
		return nil, reductionErrorf(n, "input-rank", "X needs a spatial axis")
	}
	r := len(shape) - 2
	ints := func(name string, def int64, size int) ([]int64, error) {
		v, ok, err := n.Ints(name)
		if err != nil {
			return nil, err
		}
		if !ok {
			v = make([]int64, size)
			for i := range v {
				v[i] = def
			}
		}
		if len(v) != size {
			return nil, reductionErrorf(n, name, "%s has %d values, expected %d", name, len(v), size)
		}
		return v, nil
	}
	kernel, ok, err := n.Ints("kernel_shape")
	if err != nil {
		return nil, err
	}
	if !ok || len(kernel) != r {
		return nil, reductionErrorf(n, "kernel_shape", "kernel_shape must have %d values", r)
	}
	strides, err := ints("strides", 1, r)
	if err != nil {
		return nil, err
	}
	pads, err := ints("pads", 0, 2*r)
	if err != nil {
		return nil, err
	}
	dilations, err := ints("dilations", 1, r)
	if err != nil {
		return nil, err
	}
	if !withDilations && n.Has("dilations") {
		return nil, reductionErrorf(n, "attribute", "dilations is not defined in version %d", n.Version)
	}
	if !withCeil && n.Has("ceil_mode") {
		return nil, reductionErrorf(n, "attribute", "ceil_mode is not defined in version %d", n.Version)
	}
	ceil, err := n.Int("ceil_mode", 0)
	if err != nil {
		return nil, err
	}
	autoPad, err := n.Str("auto_pad", "NOTSET")
	if err != nil {
		return nil, err
	}
	if ceil != 0 && ceil != 1 {
		return nil, reductionErrorf(n, "ceil_mode", "ceil_mode must be 0 or 1")
	}
	axes := make([]poolAxisGeometry, r)
	for i := range axes {
		k, s, d := int(kernel[i]), int(strides[i]), int(dilations[i])
		if k < 1 || s < 1 || d < 1 || pads[i] < 0 || pads[i+r] < 0 || k > math.MaxInt32 || s > math.MaxInt32 ||
			d > math.MaxInt32 || pads[i] > math.MaxInt32 || pads[i+r] > math.MaxInt32 {
			return nil, reductionErrorf(n, "attribute", "kernel_shape, strides and dilations must be positive and pads non-negative")
		}
		in := shape[i+2]
		extent := (k-1)*d + 1
		g := poolAxisGeometry{in: in, kernel: k, stride: s, dilation: d}
		switch autoPad {
		case "NOTSET", "VALID":
			if autoPad == "NOTSET" {
				g.padBegin, g.padEnd = int(pads[i]), int(pads[i+r])
			} else if pads[i] != 0 || pads[i+r] != 0 {
				return nil, reductionErrorf(n, "auto_pad", "pads cannot be used with auto_pad VALID")
			}
			span := in + g.padBegin + g.padEnd - extent
			if span < 0 {
				return nil, reductionErrorf(n, "kernel_shape", "the window is longer than the padded input")
			}
			g.out = span/s + 1
			if ceil == 1 {
				g.out = (span+s-1)/s + 1
				if (g.out-1)*s >= in+g.padBegin {
					g.out--
				}
			}
		case "SAME_UPPER", "SAME_LOWER":
			for _, p := range pads {
				if p != 0 {
					return nil, reductionErrorf(n, "auto_pad", "pads cannot be used with auto_pad %s", autoPad)
				}
			}
			g.out = (in + s - 1) / s
			total := max(0, (g.out-1)*s+extent-in)
			g.padBegin, g.padEnd = total/2, total-total/2
			if autoPad == "SAME_LOWER" {
				g.padBegin, g.padEnd = total-total/2, total/2
			}
		default:
			return nil, reductionErrorf(n, "auto_pad", "auto_pad %q is not NOTSET, SAME_UPPER, SAME_LOWER or VALID", autoPad)
		}
		axes[i] = g
	}
	return axes, nil
}

// poolTypes reports whether version v of a pooling operator takes dt.
func poolTypes(v int, dt tensor.DataType) bool {
	return dt == tensor.Float16 || dt == tensor.Float || dt == tensor.Double || (dt == tensor.BFloat16 && v >= 22)
}

// windowPool pools every window of x: term maps each real element to what
// is summed (x, or |x|^p), and done the sum and the window's output
// position (one index per spatial axis) to the output.
func windowPool[A float32 | float64](x *tensor.Tensor, axes []poolAxisGeometry, term func(A) A, done func(sum A, o []int) A) *tensor.Tensor {
	v := computeElements[A](x)
	shape := x.Shape()
	outShape := append([]int{}, shape[:2]...)
	for _, g := range axes {
		outShape = append(outShape, g.out)
	}
	inStrides := stridesOf(shape)
	out := make([]A, numElements(outShape))
	for flat := range out {
		idx := unravel(flat, outShape)
		o := idx[2:]
		// sum over the taps of axis i and after, the innermost axis first,
		// each sum from 0 in order; pos holds the element's index.
		pos := append([]int{}, idx...)
		var sum func(i int) A
		sum = func(i int) A {
			var s A
			g := axes[i]
			for t := range g.kernel {
				c := o[i]*g.stride - g.padBegin + t*g.dilation
				if c < 0 || c >= g.in {
					continue // padding adds nothing
				}
				pos[i+2] = c
				if i == len(axes)-1 {
					s += term(v[ravel(pos, inStrides)])
				} else {
					s += sum(i + 1)
				}
			}
			return s
		}
		out[flat] = done(sum(0), o)
	}
	return computeTensor(x.DataType(), outShape, out)
}
