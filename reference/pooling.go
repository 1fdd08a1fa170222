package reference

// What AveragePool and LpPool share: the geometry of the windows (MaxPool's,
// ops/internal/window), as the ONNX operator documents and its reference evaluator
// computes it, and the sum over a window. Along each spatial axis i, output o's window has the
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
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// windowGeometry reads and checks the window attributes of node n (the
// rules and the output lengths of MaxPool, ops/internal/window) for input x, after
// checking its type; dilations and ceil_mode are read where the version
// defines them. extra reads what the operator adds (count_include_pad, p)
// between the window attributes and the checks of the input.
func windowGeometry(opt *ops.Options, n *ops.Node, x *tensor.Tensor, withDilations, withCeil bool, extra func() error) ([]poolAxis, error) {
	op := opOf(n)
	a, err := readPoolAttrs(n, withDilations, withCeil)
	if err != nil {
		return nil, err
	}
	if err := extra(); err != nil {
		return nil, err
	}
	if !poolTypes(n.Version, x.DataType()) {
		return nil, op.errorf("type", "X is %v, which version %d does not accept", x.DataType(), n.Version)
	}
	shape := x.Shape()
	if len(shape) < 3 {
		return nil, op.errorf("input-rank", "X needs at least one spatial axis after N and C, got rank %d", len(shape))
	}
	if a, err = checkPoolAttrs(op, len(shape)-2, a); err != nil {
		return nil, err
	}
	axes, err := poolGeometry(op, shape[2:], a)
	if err != nil {
		return nil, err
	}
	outShape := append([]int{}, shape[:2]...)
	for _, g := range axes {
		outShape = append(outShape, g.out)
	}
	if err := checkSize(opt, op, x.DataType(), outShape); err != nil {
		return nil, err
	}
	if err := cancelled(opt, op); err != nil {
		return nil, err
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
func windowPool[A float32 | float64](opt *ops.Options, op opRef, x *tensor.Tensor, axes []poolAxis, term func(A) A, done func(sum A, o []int) A) ([]tensor.Value, error) {
	shape := x.Shape()
	outShape := append([]int{}, shape[:2]...)
	for _, g := range axes {
		outShape = append(outShape, g.out)
	}
	y, err := newTensor(opt, op, x.DataType(), outShape)
	if err != nil {
		return nil, err
	}
	inStrides := stridesOf(shape)
	// sum over the taps of axis i and after of the window at output
	// position o, the innermost axis first, each sum from 0 in order; pos
	// holds the element's index. Padding adds nothing: only the real taps
	// are visited.
	work := cancelEvery // a look at the run before the first window
	var o, pos []int
	var sum func(i int) A
	sum = func(i int) A {
		var s A
		g := axes[i]
		lo, hi := windowTaps(g, o[i])
		for t := lo; t < hi; t++ {
			pos[i+2] = o[i]*g.stride - g.padBegin + t*g.dilation
			if i == len(axes)-1 {
				s += term(elementAs[A](x, ravel(pos, inStrides)))
				work++
			} else {
				s += sum(i + 1)
			}
		}
		return s
	}
	pos = make([]int, len(shape))
	var stop error
	forEachIndexWhile(outShape, func(flat int, idx []int) bool {
		if work++; work >= cancelEvery {
			if work, stop = 0, cancelled(opt, op); stop != nil {
				return false
			}
		}
		copy(pos, idx)
		o = idx[2:]
		setElementAs(y, flat, done(sum(0), o))
		return true
	})
	if stop != nil {
		return nil, stop
	}
	return values(y), nil
}
