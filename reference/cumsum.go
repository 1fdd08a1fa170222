// CumSum (11, 14): "Performs cumulative sum of the input elements along the
// given axis. By default, it will do the sum inclusively meaning the first
// element is copied as is. Through an exclusive attribute, this behavior
// can change to exclude the first element. It can also perform summation
// in the opposite direction of the axis. For that, set reverse attribute
// to 1." axis is a tensor of one int32 or int64. Types: uint32, uint64,
// int32, int64, float, double, and from 14 float16 and bfloat16 (computed
// in float32); integers wrap.

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("CumSum", []int{11, 14}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		op := opOf(n)
		x, err := requiredInput(op, in, 0, "x")
		if err != nil {
			return nil, err
		}
		at, err := requiredInput(op, in, 1, "axis")
		if err != nil {
			return nil, err
		}
		if at.DataType() != tensor.Int32 && at.DataType() != tensor.Int64 {
			return nil, op.errorf("axis", "axis must be int32 or int64, got %v", at.DataType())
		}
		if at.Rank() > 1 || at.Len() != 1 {
			return nil, op.errorf("axis", "axis must hold one element, got shape %v", at.Shape())
		}
		a, _ := int64sOf(at)
		exclusive, err := n.Int("exclusive", 0)
		if err != nil {
			return nil, err
		}
		if exclusive != 0 && exclusive != 1 {
			return nil, op.errorf("exclusive", "exclusive is %d, expected 0 or 1", exclusive)
		}
		reverse, err := n.Int("reverse", 0)
		if err != nil {
			return nil, err
		}
		if reverse != 0 && reverse != 1 {
			return nil, op.errorf("reverse", "reverse is %d, expected 0 or 1", reverse)
		}
		switch dt := x.DataType(); {
		case dt == tensor.Uint32 || dt == tensor.Uint64 || dt == tensor.Int32 || dt == tensor.Int64 ||
			dt == tensor.Float || dt == tensor.Double:
		case (dt == tensor.Float16 || dt == tensor.BFloat16) && n.Version >= 14:
		default:
			return nil, op.errorf("type", "x is %v, which version %d does not accept", dt, n.Version)
		}
		axis, err := checkAxis(n, a[0], x.Rank())
		if err != nil {
			return nil, err
		}
		if err := checkSize(opt, op, x.DataType(), x.Shape()); err != nil {
			return nil, err
		}
		if err := cancelled(opt, op); err != nil {
			return nil, err
		}
		slices := axisSlices(x.Shape(), axis)
		var y *tensor.Tensor
		switch computeTypeOf(x.DataType()) {
		case tensor.Float:
			y = mapSlices(x, slices, cumulativeSum[float32](exclusive == 1, reverse == 1))
		case tensor.Double:
			y = mapSlices(x, slices, cumulativeSum[float64](exclusive == 1, reverse == 1))
		case tensor.Int32:
			y = mapSlices(x, slices, cumulativeSum[int32](exclusive == 1, reverse == 1))
		case tensor.Uint32:
			y = mapSlices(x, slices, cumulativeSum[uint32](exclusive == 1, reverse == 1))
		case tensor.Int64:
			y = mapSlices(x, slices, cumulativeSum[int64](exclusive == 1, reverse == 1))
		case tensor.Uint64:
			y = mapSlices(x, slices, cumulativeSum[uint64](exclusive == 1, reverse == 1))
		}
		return []tensor.Value{y}, nil
	})
}

// cumulativeSum returns the running sums of one slice: element j is the sum
// of the elements before j (exclusive) or up to j, counted from the end with
// reverse, added in that order (from 0, but for the first inclusive sum,
// which is the first element as is).
func cumulativeSum[A computeNumber](exclusive, reverse bool) func([]A) []A {
	return func(v []A) []A {
		n := len(v)
		out := make([]A, n)
		var s A
		for step := range n {
			j := step
			if reverse {
				j = n - 1 - step
			}
			if exclusive {
				out[j] = s
				s += v[j]
			} else {
				// "the first element is copied as is"
				if step == 0 {
					s = v[j]
				} else {
					s += v[j]
				}
				out[j] = s
			}
		}
		return out
	}
}
