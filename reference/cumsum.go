// CumSum (11, 14): "Performs cumulative sum of the input elements along the
// given axis. By default, it will do the sum inclusively meaning the first
// element is copied as is. Through an exclusive attribute, this behavior
// can change to exclude the first element. It can also perform summation
// in the opposite direction of the axis. For that, set reverse attribute
// to 1." axis is a tensor of one int32 or int64. Types: uint32, uint64,
// int32, int64, float, double, and from 14 float16 and bfloat16 (computed
// in float32); integers wrap. CumProd (cumprod.go) is the same with
// products.

package reference

import (
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("CumSum", []int{11, 14}, cumulativeKernel(false, func(version int, dt tensor.DataType) bool {
		switch dt {
		case tensor.Uint32, tensor.Uint64, tensor.Int32, tensor.Int64, tensor.Float, tensor.Double:
			return true
		case tensor.Float16, tensor.BFloat16:
			return version >= 14
		}
		return false
	}))
}

// cumulativeKernel is the kernel of CumSum or, with product, CumProd;
// typeOK says which types a version accepts.
func cumulativeKernel(product bool, typeOK func(version int, dt tensor.DataType) bool) ops.Kernel {
	return func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
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
		if !typeOK(n.Version, x.DataType()) {
			return nil, op.errorf("type", "x is %v, which version %d does not accept", x.DataType(), n.Version)
		}
		axis, err := checkAxis(n, a[0], x.Rank())
		if err != nil {
			return nil, err
		}
		y, err := newTensor(opt, op, x.DataType(), x.Shape())
		if err != nil {
			return nil, err
		}
		slices := axisMarked(x.Rank(), axis)
		excl, rev := exclusive == 1, reverse == 1
		switch computeTypeOf(x.DataType()) {
		case tensor.Float:
			err = mapGathered(opt, op, x, y, slices, cumulate[float32](excl, rev, product))
		case tensor.Double:
			err = mapGathered(opt, op, x, y, slices, cumulate[float64](excl, rev, product))
		case tensor.Int32:
			err = mapGathered(opt, op, x, y, slices, cumulate[int32](excl, rev, product))
		case tensor.Uint32:
			err = mapGathered(opt, op, x, y, slices, cumulate[uint32](excl, rev, product))
		case tensor.Int64:
			err = mapGathered(opt, op, x, y, slices, cumulate[int64](excl, rev, product))
		case tensor.Uint64:
			err = mapGathered(opt, op, x, y, slices, cumulate[uint64](excl, rev, product))
		}
		if err != nil {
			return nil, err
		}
		return values(y), nil
	}
}

// cumulate sets out to the running sums (or products) of one slice v: element j
// combines the elements before j (exclusive) or up to j, counted from the
// end with reverse, in that order, starting from 0 (1 for a product), but
// for the first inclusive value, which is the first element as is.
func cumulate[A computeNumber](exclusive, reverse, product bool) func(v, out []A) {
	combine := func(s, v A) A { return s + v }
	var start A
	if product {
		combine = func(s, v A) A { return s * v }
		start = 1
	}
	return func(v, out []A) {
		n := len(v)
		s := start
		for step := range n {
			j := step
			if reverse {
				j = n - 1 - step
			}
			if exclusive {
				out[j] = s
				s = combine(s, v[j])
			} else {
				// "the first element is copied as is"
				if step == 0 {
					s = v[j]
				} else {
					s = combine(s, v[j])
				}
				out[j] = s
			}
		}
	}
}
