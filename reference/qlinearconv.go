// QLinearConv (10): "The convolution operator consumes a quantized input
// tensor, its scale and zero point, a quantized filter, its scale and zero
// point, and output's scale and zero point, and computes the quantized
// output." As the reference evaluator's op_qlinear_conv.py: the int32 sums
// of ConvInteger (convinteger.go) plus B, times x_scale*w_scale/y_scale
// (float32 arithmetic, per output channel when w_scale has M values), plus
// y_zero_point (in float64), clipped to y's type and rounded half to even.

package reference

import (
	"math"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("QLinearConv", []int{10}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		op := opOf(n)
		names := []string{"x", "x_scale", "x_zero_point", "w", "w_scale", "w_zero_point", "y_scale", "y_zero_point"}
		t := make([]*tensor.Tensor, len(names))
		for i, name := range names {
			var err error
			if t[i], err = requiredInput(op, in, i, name); err != nil {
				return nil, err
			}
		}
		b, err := optionalInput(op, in, 8)
		if err != nil {
			return nil, err
		}
		x, xs, xz, w, ws, wz, ys, yz := t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7]
		a, err := readConvAttrs(n, true)
		if err != nil {
			return nil, err
		}
		for i, s := range []*tensor.Tensor{xs, ws, ys} {
			if s.DataType() != tensor.Float {
				return nil, op.errorf("type", "%s is %v, expected float", []string{"x_scale", "w_scale", "y_scale"}[i], s.DataType())
			}
		}
		if yz.DataType() != tensor.Int8 && yz.DataType() != tensor.Uint8 {
			return nil, op.errorf("type", "y_zero_point is %v", yz.DataType())
		}
		if b != nil && b.DataType() != tensor.Int32 {
			return nil, op.errorf("type", "B is %v, expected int32", b.DataType())
		}
		one := func(name string, t *tensor.Tensor) error {
			if t.Len() != 1 || t.Rank() > 1 {
				return op.errorf(name, "%s has shape %v, expected one value", name, t.Shape())
			}
			return nil
		}
		shape, sums, err := integerConvolution(opt, op, x, w, xz, wz, a, func(m int) error {
			if err := one("x_scale", xs); err != nil {
				return err
			}
			if !(ws.Rank() <= 1 && ws.Len() == 1) && !(ws.Rank() == 1 && ws.Len() == m) {
				return op.errorf("w_scale", "w_scale has shape %v, M is %d", ws.Shape(), m)
			}
			if err := one("y_scale", ys); err != nil {
				return err
			}
			if err := one("y_zero_point", yz); err != nil {
				return err
			}
			return checkConvBias(op, b, tensor.Int32, m)
		})
		if err != nil {
			return nil, err
		}
		y, err := newTensor(opt, op, yz.DataType(), shape)
		if err != nil {
			return nil, err
		}
		xsv, wsv, ysv := computeElements[float32](xs), computeElements[float32](ws), computeElements[float32](ys)
		zero := computeElements[float64](yz)[0]
		lo, hi := 0.0, 255.0
		if yz.DataType() == tensor.Int8 {
			lo, hi = -128, 127
		}
		plane := numElements(shape[2:])
		for i, s := range sums {
			m := (i / plane) % shape[1]
			acc := int32(s)
			if b != nil {
				acc += elementAs[int32](b, m)
			}
			scale := xsv[0] * wsv[min(m, len(wsv)-1)] / ysv[0]
			r := float64(float64(acc)*float64(scale)) + zero
			r = math.RoundToEven(math.Min(hi, math.Max(lo, r)))
			if math.IsNaN(r) {
				r = 0
			}
			y.Bytes()[i] = byte(int8(int64(r)))
			if yz.DataType() == tensor.Uint8 {
				y.Bytes()[i] = byte(int64(r))
			}
		}
		return values(y), nil
	})
}
