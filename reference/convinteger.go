// ConvInteger (10): "The integer convolution operator consumes an input
// tensor, its zero-point, a filter, and its zero-point, and computes the
// output. The production MUST never overflow." Output (int32) at (n, m, o)
// is the sum over the taps of Conv (conv.go, convolution.go) of
// (x - x_zero_point) * (w - w_zero_point[m]), padding being a real 0 (it
// adds nothing); w_zero_point holds one value or one per output channel.
// Summed in int64 and wrapped to int32 as onnxruntime's int32 sums do.

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("ConvInteger", []int{10}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		op := opOf(n)
		x, err := requiredInput(op, in, 0, "x")
		if err != nil {
			return nil, err
		}
		w, err := requiredInput(op, in, 1, "w")
		if err != nil {
			return nil, err
		}
		xz, err := optionalInput(op, in, 2)
		if err != nil {
			return nil, err
		}
		wz, err := optionalInput(op, in, 3)
		if err != nil {
			return nil, err
		}
		a, err := readConvAttrs(n, true)
		if err != nil {
			return nil, err
		}
		shape, sums, err := integerConvolution(opt, op, x, w, xz, wz, a, nil)
		if err != nil {
			return nil, err
		}
		y, err := newTensor(opt, op, tensor.Int32, shape)
		if err != nil {
			return nil, err
		}
		for i, s := range sums {
			littleEndian.PutUint32(y.Bytes()[4*i:], uint32(int32(s)))
		}
		return values(y), nil
	})
}

// integerConvolution checks what ConvInteger and QLinearConv share and
// returns the output shape and the sums (int64, not yet wrapped); more
// checks what the operator adds once the output channels are known,
// before the output size.
func integerConvolution(opt *ops.Options, op opRef, x, w, xz, wz *tensor.Tensor, a convAttrs, more func(m int) error) ([]int, []int64, error) {
	is8 := func(dt tensor.DataType) bool { return dt == tensor.Int8 || dt == tensor.Uint8 }
	if !is8(x.DataType()) {
		return nil, nil, op.errorf("type", "x is %v, expected int8 or uint8", x.DataType())
	}
	if !is8(w.DataType()) {
		return nil, nil, op.errorf("type", "w is %v, expected int8 or uint8", w.DataType())
	}
	if xz != nil && xz.DataType() != x.DataType() {
		return nil, nil, op.errorf("type", "x_zero_point is %v, x %v", xz.DataType(), x.DataType())
	}
	if wz != nil && wz.DataType() != w.DataType() {
		return nil, nil, op.errorf("type", "w_zero_point is %v, w %v", wz.DataType(), w.DataType())
	}
	a, err := checkConvWeight(op, x.Shape(), w.Shape(), a, false)
	if err != nil {
		return nil, nil, err
	}
	m := w.Shape()[0]
	if xz != nil && (xz.Len() != 1 || xz.Rank() > 1) {
		return nil, nil, op.errorf("x_zero_point", "x_zero_point has shape %v", xz.Shape())
	}
	if wz != nil && !(wz.Rank() <= 1 && wz.Len() == 1) && !(wz.Rank() == 1 && wz.Len() == m) {
		return nil, nil, op.errorf("w_zero_point", "w_zero_point has shape %v, M is %d", wz.Shape(), m)
	}
	shape, axes, err := convOutput(op, x.Shape(), m, a)
	if err != nil {
		return nil, nil, err
	}
	if err := checkSize(opt, op, tensor.Int32, shape); err != nil {
		return nil, nil, err
	}
	if more != nil {
		if err := more(m); err != nil {
			return nil, nil, err
		}
	}
	if err := cancelled(opt, op); err != nil {
		return nil, nil, err
	}
	if err := chargeScratch(opt, op, "the int64 sums", numElements(shape), 8); err != nil {
		return nil, nil, err
	}
	var xzero int64
	if xz != nil {
		xzero = elementAs[int64](xz, 0)
	}
	wzero := func(m int) int64 {
		if wz == nil {
			return 0
		}
		return elementAs[int64](wz, min(m, wz.Len()-1))
	}
	xStrides, wStrides := stridesOf(x.Shape()), stridesOf(w.Shape())
	cg, mg := w.Shape()[1], m/a.group
	sums := make([]int64, numElements(shape))
	xi := make([]int, len(shape))
	wi := make([]int, len(shape))
	stop := newPoll(opt, op)
	forEachIndexWhile(shape, func(flat int, idx []int) bool {
		nn, mm, o := idx[0], idx[1], idx[2:]
		g := mm / mg
		sums[flat] = convSum(axes, o, g*cg, cg,
			func(c int, p []int) int64 {
				xi[0], xi[1] = nn, c
				copy(xi[2:], p)
				return elementAs[int64](x, ravel(xi, xStrides)) - xzero
			},
			func(c int, t []int) int64 {
				wi[0], wi[1] = mm, c
				copy(wi[2:], t)
				return elementAs[int64](w, ravel(wi, wStrides)) - wzero(mm)
			})
		return !stop.stop(w.Len()/max(m, 1) + 1)
	})
	if stop.err != nil {
		return nil, nil, stop.err
	}
	return shape, sums, nil
}
