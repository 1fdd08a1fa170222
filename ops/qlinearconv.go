// QLinearConv is Conv over linearly quantized tensors: the int32 sums of
// ConvInteger (x - x_zero_point times w - w_zero_point), plus the int32
// bias B, are requantized to y's scale and zero point:
//
//	y = saturate(round_half_even(sum * (x_scale*w_scale/y_scale) + y_zero_point))
//
// the multiplier computed in float32 (x_scale*w_scale, then /y_scale) as
// the reference evaluator's numpy does, the product and the sum in
// float64. Saturation clips to y's type's range.
//
// Version 10. Types: x and x_zero_point int8 or uint8, w and w_zero_point
// int8 or uint8, y_zero_point (and y) int8 or uint8, the scales float, B
// int32. x_scale, x_zero_point, y_scale and y_zero_point hold one value;
// w_scale and w_zero_point one, or one per output channel. Exact: the
// fast engine's result equals the reference's.
//
// The rules: [type] each input's type; Conv's shape and window rules;
// [x_scale], [x_zero_point], [y_scale], [y_zero_point] one value each;
// [w_scale], [w_zero_point] one value or M; [B] M int32 values; [size].

package ops

import (
	"sync"

	"github.com/onnxshape/onnxshape/ops/internal/quant"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("QLinearConv", []int{10}, [2]int{8, 9}, [2]int{1, 1}, qlinearConvNode)
	declareAttrs("QLinearConv",
		AttrSpec{Name: "auto_pad", Type: AttrString},
		AttrSpec{Name: "dilations", Type: AttrInts},
		AttrSpec{Name: "group", Type: AttrInt},
		AttrSpec{Name: "kernel_shape", Type: AttrInts},
		AttrSpec{Name: "pads", Type: AttrInts},
		AttrSpec{Name: "strides", Type: AttrInts})
}

func qlinearConvNode(opt *Options, n *Node, in []tensor.Value) ([]tensor.Value, error) {
	op := n.op()
	names := []string{"x", "x_scale", "x_zero_point", "w", "w_scale", "w_zero_point", "y_scale", "y_zero_point"}
	t := make([]*tensor.Tensor, 9)
	for i, name := range names {
		var err error
		if t[i], err = n.requiredInput(in, i, name); err != nil {
			return nil, err
		}
	}
	b, err := n.tensorInput(in, 8)
	if err != nil {
		return nil, err
	}
	x, xs, xz, w, ws, wz, ys, yz := t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7]
	a, err := readConvAttrs(n, true)
	if err != nil {
		return nil, err
	}
	for _, s := range []struct {
		name string
		t    *tensor.Tensor
	}{{"x_scale", xs}, {"w_scale", ws}, {"y_scale", ys}} {
		if s.t.DataType() != tensor.Float {
			return nil, op.errorf("type", "%s is %v, expected float", s.name, s.t.DataType())
		}
	}
	if !int8Type(yz.DataType()) {
		return nil, op.errorf("type", "y_zero_point is %v, expected int8 or uint8", yz.DataType())
	}
	if b != nil && b.DataType() != tensor.Int32 {
		return nil, op.errorf("type", "B is %v, expected int32", b.DataType())
	}
	opt = opt.orDefault()
	one := func(name string, t *tensor.Tensor) error {
		if t.Len() != 1 || t.Rank() > 1 {
			return op.errorf(name, "%s has shape %v, expected one value", name, t.Shape())
		}
		return nil
	}
	var y *tensor.Tensor
	var acc []int32
	var accBuf *[]int32
	defer func() {
		if accBuf != nil {
			accPool.Put(accBuf)
		}
	}()
	err = integerConv(opt, op, n, x, w, xz, wz, a, n.packedInput(3, w), func(shape []int) ([]int32, error) {
		m := shape[1]
		if err := one("x_scale", xs); err != nil {
			return nil, err
		}
		if !(ws.Rank() <= 1 && ws.Len() == 1) && !(ws.Rank() == 1 && ws.Len() == m) {
			return nil, op.errorf("w_scale", "w_scale has shape %v, expected one value or %d (one per output channel)", ws.Shape(), m)
		}
		if err := one("y_scale", ys); err != nil {
			return nil, err
		}
		if err := one("y_zero_point", yz); err != nil {
			return nil, err
		}
		if err := convBias(op, b, tensor.Int32, m); err != nil {
			return nil, err
		}
		var err error
		y, accBuf, err = quantizedOutput(opt, op, yz.DataType(), shape)
		if err != nil {
			return nil, err
		}
		acc = *accBuf
		return acc, nil
	})
	if err != nil {
		return nil, err
	}
	if err := requantize(opt, y, acc, b, xs, ws, ys, yz); err != nil {
		return nil, op.stopped(err)
	}
	return values(y), nil
}

// requantize writes the int32 sums acc (plus B) to y under the scales and
// y's zero point, channel by channel (ops/internal/quant.Requantize: the
// formula above, vectorised), the planes split across the cores.
func requantize(opt *Options, y *tensor.Tensor, acc []int32, b, xs, ws, ys, yz *tensor.Tensor) error {
	shape := y.Shape()
	m := shape[1]
	plane := 1
	for _, d := range shape[2:] {
		plane *= d
	}
	xsv, _ := tensor.Data[float32](xs)
	wsv, _ := tensor.Data[float32](ws)
	ysv, _ := tensor.Data[float32](ys)
	var bv []int32
	if b != nil {
		bv, _ = tensor.Data[int32](b)
	}
	signed := yz.DataType() == tensor.Int8
	zero := float64(yz.Bytes()[0])
	if signed {
		zero = float64(int8(yz.Bytes()[0]))
	}
	out := y.Bytes()
	if plane == 0 {
		return nil
	}
	return parallelRange(opt, len(acc)/plane, len(acc), func(lo, hi int) error {
		for p := lo; p < hi; p++ {
			c := p % m
			mult := float64(xsv[0] * wsv[min(c, len(wsv)-1)] / ysv[0])
			var bias int32
			if bv != nil {
				bias = bv[c]
			}
			quant.Requantize(out[p*plane:(p+1)*plane], acc[p*plane:(p+1)*plane], bias, mult, zero, signed)
		}
		return nil
	})
}

// accPool keeps QLinearConv's and QLinearMatMul's int32 sums between runs (charged to each
// run as scratch all the same), saving a large allocation and its page
// faults at every run.
var accPool sync.Pool

// quantizedOutput makes a quantized convolution's output y, of type dt and
// shape, and takes the int32 sums it accumulates into, charged first as
// scratch (the caller gives them back to accPool).
func quantizedOutput(opt *Options, op opRef, dt tensor.DataType, shape []int) (*tensor.Tensor, *[]int32, error) {
	y, err := opt.newOverwritten(op, dt, shape)
	if err != nil {
		return nil, nil, err
	}
	if err := opt.scratch(op, "the int32 sums", y.Len(), 4); err != nil {
		return nil, nil, err
	}
	return y, getAcc(y.Len()), nil
}

func getAcc(n int) *[]int32 {
	if v, ok := accPool.Get().(*[]int32); ok && cap(*v) >= n {
		*v = (*v)[:n]
		return v
	}
	s := make([]int32, n)
	return &s
}
