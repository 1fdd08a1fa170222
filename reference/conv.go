// Conv (1, 11, 22): "The convolution operator consumes an input tensor and
// a filter, and computes the output." Output channel m of image n at
// window position o is B[m] plus the sum, over the C/group input channels
// c of m's group g = m / (M/group) and the kernel's taps t, of
// X[n, g*C/group + c, o*strides - pads_begin + t*dilations] * W[m, c, t],
// taps in the padding adding nothing. The window geometry and auto_pad are
// convolution.go's. Types: float16, float, double, and bfloat16 from 22;
// each output computed in float64 and rounded once.

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("Conv", []int{1, 11, 22}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		op := opOf(n)
		x, err := requiredInput(op, in, 0, "X")
		if err != nil {
			return nil, err
		}
		w, err := requiredInput(op, in, 1, "W")
		if err != nil {
			return nil, err
		}
		b, err := optionalInput(op, in, 2)
		if err != nil {
			return nil, err
		}
		a, err := readConvAttrs(n, true)
		if err != nil {
			return nil, err
		}
		dt := x.DataType()
		if !convFloatType(n.Version, dt) {
			return nil, op.errorf("type", "X is %v, which version %d does not accept", dt, n.Version)
		}
		if w.DataType() != dt {
			return nil, op.errorf("type", "W is %v, X %v", w.DataType(), dt)
		}
		if a, err = checkConvWeight(op, x.Shape(), w.Shape(), a, false); err != nil {
			return nil, err
		}
		m := w.Shape()[0]
		if err := checkConvBias(op, b, dt, m); err != nil {
			return nil, err
		}
		shape, axes, err := convOutput(op, x.Shape(), m, a)
		if err != nil {
			return nil, err
		}
		y, err := newTensor(opt, op, dt, shape)
		if err != nil {
			return nil, err
		}
		if err := cancelled(opt, op); err != nil {
			return nil, err
		}
		xStrides, wStrides := stridesOf(x.Shape()), stridesOf(w.Shape())
		cg, mg := w.Shape()[1], m/a.group
		xi := make([]int, len(shape))
		wi := make([]int, len(shape))
		stop := newPoll(opt, op)
		forEachIndexWhile(shape, func(flat int, idx []int) bool {
			nn, mm, o := idx[0], idx[1], idx[2:]
			g := mm / mg
			s := convSum(axes, o, g*cg, cg,
				func(c int, p []int) float64 {
					xi[0], xi[1] = nn, c
					copy(xi[2:], p)
					return elementAs[float64](x, ravel(xi, xStrides))
				},
				func(c int, t []int) float64 {
					wi[0], wi[1] = mm, c
					copy(wi[2:], t)
					return elementAs[float64](w, ravel(wi, wStrides))
				})
			if b != nil {
				s += elementAs[float64](b, mm)
			}
			setElementAs(y, flat, s)
			return !stop.stop(w.Len() / max(m, 1))
		})
		if stop.err != nil {
			return nil, stop.err
		}
		return values(y), nil
	})
}
